import type * as L from 'leaflet';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { latLng } from '../floor-map/map-setup';
import { handleMarker, moveWithKeys } from './keyboard-handle';

/** Two points picked on the plan image (fractions from its top-left) and the same two on the map. */
export interface Anchors {
  plan: Array<[number, number]>;
  map: Array<[number, number]>;
}

/** Where the plan's pointer starts for each point: far apart, as the fit wants them. */
const CURSOR_START: Array<[number, number]> = [
  [0.25, 0.25],
  [0.75, 0.75],
];

const percent = (fraction: number) => `${(Math.round(fraction * 1000) / 10).toFixed(1)} %`;
const degrees = (value: number) => value.toFixed(6);

/**
 * Aligning by two anchor points: a point of the plan (a door, a corner), then where it is on
 * the map; then a second pair. The plan is scaled, turned and moved to match both. With the
 * mouse, a click sets each point; with the keyboard, the plan's pointer and the map's handle
 * are moved with the arrow keys (a pixel a press, ten with Shift) and set with Enter, the focus
 * going from one to the next.
 */
export function AnchorPicker(props: {
  map: L.Map;
  planUrl: string;
  anchors: Anchors | null;
  onAnchors: (a: Anchors | null) => void;
  onFit: (image: { width: number; height: number }, anchors: Anchors) => boolean;
}) {
  const { anchors, onAnchors, map } = props;
  const image = useRef<HTMLImageElement>(null);
  const cursorButton = useRef<HTMLButtonElement>(null);
  const [failed, setFailed] = useState(false);
  const [cursor, setCursor] = useState<[number, number]>(CURSOR_START[0]);
  const [mapPoint, setMapPoint] = useState<[number, number] | null>(null);
  // Which point is awaited: on the plan (plan.length === map.length) or on the map.
  const waitingForMap = anchors !== null && anchors.plan.length > anchors.map.length;
  const n = anchors ? anchors.map.length + 1 : 1;

  const setOnMap = (lngLat: [number, number]) => {
    const next = { ...anchors!, map: [...anchors!.map, lngLat] };
    if (next.map.length === 2) {
      const img = image.current!;
      setFailed(!props.onFit({ width: img.naturalWidth, height: img.naturalHeight }, next));
    } else onAnchors(next);
  };
  const setOnPlan = (at: [number, number]) => onAnchors({ ...anchors!, plan: [...anchors!.plan, at] });

  // Waiting for the plan: its pointer starts at its place for this point and takes the focus.
  useEffect(() => {
    if (!anchors || waitingForMap) return;
    setCursor(CURSOR_START[anchors.plan.length] ?? CURSOR_START[0]);
    cursorButton.current?.focus();
  }, [anchors !== null, waitingForMap, anchors?.plan.length]);

  // The pointer's place over the image (the CSP allows no inline style attribute: set through the DOM).
  useLayoutEffect(() => {
    cursorButton.current?.style.setProperty('left', `${cursor[0] * 100}%`);
    cursorButton.current?.style.setProperty('top', `${cursor[1] * 100}%`);
  }, [cursor, anchors, waitingForMap]);

  // Waiting for the map: a click sets the point; or the handle (in the middle of the map) is moved with the keys and set with Enter.
  // A layout effect: the map listens before the words asking for the click are painted.
  useLayoutEffect(() => {
    if (!waitingForMap) return;
    const start = map.getCenter();
    setMapPoint([start.lng, start.lat]);
    let at: [number, number] = [start.lng, start.lat];
    const marker = handleMarker(latLng(at), 'anchor', `Point ${n} on the map`, 22).addTo(map);
    const label = () =>
      marker.getElement()?.setAttribute('aria-label', `Point ${n} on the map, at latitude ${degrees(at[1])}, longitude ${degrees(at[0])}: arrow keys move it, Enter sets it`);
    label();
    const stopKeys = moveWithKeys(
      map,
      marker,
      (to) => {
        at = to;
        label();
        setMapPoint(to);
      },
      () => setOnMap(at),
    );
    const click = (e: L.LeafletMouseEvent) => setOnMap([e.latlng.lng, e.latlng.lat]);
    map.getContainer().classList.add('picking');
    map.once('click', click);
    marker.getElement()?.focus();
    return () => {
      map.getContainer().classList.remove('picking');
      map.off('click', click);
      stopKeys();
      marker.remove();
    };
  }, [waitingForMap, anchors]);

  const moveCursor = (e: KeyboardEvent) => {
    const box = image.current?.getBoundingClientRect();
    const step = e.shiftKey ? 10 : 1;
    const delta = ({ ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] } as Record<string, [number, number]>)[e.key];
    if (!delta || !box?.width || !box.height) return;
    e.preventDefault();
    const clamp = (v: number) => Math.min(1, Math.max(0, v));
    setCursor(([x, y]) => [clamp(x + delta[0] / box.width), clamp(y + delta[1] / box.height)]);
  };

  const step = !anchors ? '' : waitingForMap ? `Now click where point ${anchors.plan.length} is on the map.` : `Click point ${anchors.plan.length + 1} on the plan.`;
  return (
    <div class="anchors">
      <h2>Align by two points</h2>
      {!anchors ? (
        <>
          <p class="muted">Pick two points you can find both on the plan and on the map, far apart.</p>
          <button
            type="button"
            class="btn plain"
            onClick={() => {
              setFailed(false);
              onAnchors({ plan: [], map: [] });
            }}
          >
            Align by two points
          </button>
        </>
      ) : (
        <>
          <p class="notice" role="status">
            {step}
          </p>
          <p class="muted small">With the keyboard: arrow keys move the point (Shift for bigger steps), Enter sets it.</p>
          {waitingForMap && mapPoint && (
            <p class="muted small" data-testid="map-anchor">
              Point {n} on the map: {degrees(mapPoint[1])}, {degrees(mapPoint[0])}
            </p>
          )}
          <div class="anchor-plan-wrap">
            <img
              ref={image}
              class={`anchor-plan${waitingForMap ? ' waiting' : ''}`}
              src={props.planUrl}
              alt="The floor plan: click a point of it"
              onClick={(e) => {
                if (waitingForMap) return;
                const box = e.currentTarget.getBoundingClientRect();
                setOnPlan([(e.clientX - box.left) / box.width, (e.clientY - box.top) / box.height]);
              }}
            />
            {!waitingForMap && (
              <button
                ref={cursorButton}
                type="button"
                class="plan-cursor"
                aria-label={`Point ${anchors.plan.length + 1} on the plan, ${percent(cursor[0])} from the left and ${percent(cursor[1])} from the top: arrow keys move it, Enter sets it`}
                data-x={cursor[0]}
                data-y={cursor[1]}
                onKeyDown={moveCursor}
                onClick={() => setOnPlan(cursor)}
              />
            )}
          </div>
          <button type="button" class="btn plain" onClick={() => onAnchors(null)}>
            Cancel
          </button>
        </>
      )}
      {failed && <p class="error-box">The two points are too close together: pick two points farther apart.</p>}
    </div>
  );
}
