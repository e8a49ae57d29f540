import type { Map as MapLibreMap, MapMouseEvent } from 'maplibre-gl';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';

/** Two points picked on the plan image (fractions from its top-left) and the same two on the map. */
export interface Anchors {
  plan: Array<[number, number]>;
  map: Array<[number, number]>;
}

/**
 * Aligning by two anchor points: click a point of the plan (a door, a corner), then where it is
 * on the map; then a second pair. The plan is scaled, turned and moved to match both.
 */
export function AnchorPicker(props: {
  map: MapLibreMap;
  planUrl: string;
  anchors: Anchors | null;
  onAnchors: (a: Anchors | null) => void;
  onFit: (image: { width: number; height: number }, anchors: Anchors) => boolean;
}) {
  const { anchors, onAnchors } = props;
  const image = useRef<HTMLImageElement>(null);
  const [failed, setFailed] = useState(false);
  // Which click is awaited: on the plan (plan.length === map.length) or on the map.
  const waitingForMap = anchors !== null && anchors.plan.length > anchors.map.length;
  // A layout effect: the map listens before the words asking for the click are painted.
  useLayoutEffect(() => {
    if (!waitingForMap) return;
    const click = (e: MapMouseEvent) => {
      const next = { ...anchors!, map: [...anchors!.map, [e.lngLat.lng, e.lngLat.lat] as [number, number]] };
      if (next.map.length === 2) {
        const img = image.current!;
        setFailed(!props.onFit({ width: img.naturalWidth, height: img.naturalHeight }, next));
      } else onAnchors(next);
    };
    props.map.getCanvas().classList.add('picking');
    props.map.once('click', click);
    return () => {
      props.map.getCanvas().classList.remove('picking');
      props.map.off('click', click);
    };
  }, [waitingForMap, anchors]);
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
          <img
            ref={image}
            class={`anchor-plan${waitingForMap ? ' waiting' : ''}`}
            src={props.planUrl}
            alt="The floor plan: click a point of it"
            onClick={(e) => {
              if (waitingForMap) return;
              const box = e.currentTarget.getBoundingClientRect();
              onAnchors({ ...anchors, plan: [...anchors.plan, [(e.clientX - box.left) / box.width, (e.clientY - box.top) / box.height]] });
            }}
          />
          <button type="button" class="btn plain" onClick={() => onAnchors(null)}>
            Cancel
          </button>
        </>
      )}
      {failed && <p class="error-box">The two points are too close together: pick two points farther apart.</p>}
    </div>
  );
}
