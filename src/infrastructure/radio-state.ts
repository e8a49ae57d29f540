import { ReferenceFit } from './estimator/cross-validation';
import { FloorStatistics, SolvedModel } from './estimator/radio-model';
import { TransmitterIndex } from './estimator/scan-estimator';
import { KnownTransmitter } from './estimator/transmitter';

/** How a floor places scans now, as the API names it. */
export type RadioMethod = 'default' | 'self_calibrated' | 'reference_points' | 'fingerprinting' | 'radio_map';

/** One floor's radio model as the estimator uses it and the API shows it. */
export interface FloorRadioState {
  floorId: number;
  method: RadioMethod;
  model: SolvedModel;
  /** The running self-calibration's statistics (empty without scans). */
  running: FloorStatistics;
  runningUpdatedAt: Date | null;
  references: ReferenceFit | null;
}

/** A building's transmitters calibrated by its floors' models, cached per instance. */
export interface CalibratedSite {
  /** The key: the transmitters' revisions, the models' and the reference points'. */
  key: string;
  index: TransmitterIndex;
  floors: Map<number, FloorRadioState>;
  /** The registered transmitters by `kind:id`, for the calibration's readings. */
  registered: Map<string, KnownTransmitter>;
}
