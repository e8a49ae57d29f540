/** The pure routing core of wayfinding (issue 40): the graph of a building's paths, routes over it and their indications. */
export { CONNECTOR_TYPES, connectorFromTags, floorLinkConnector, isConnectorType, type ConnectorType } from './connectors';
export {
  buildRouteGraph,
  DEFAULT_ROUTE_SETTINGS,
  pathProblems,
  RouteGraph,
  validatePaths,
  type PathProblem,
  type LinkOrigin,
  type RouteFloor,
  type RouteLink,
  type RouteNode,
  type RouteSettings,
} from './graph';
export {
  ARRIVAL_DISTANCE_M,
  followRoute,
  projectOntoRoute,
  startOf,
  type FollowedFix,
  type FollowedRoute,
  type FollowSettings,
  type PreviousProgress,
  type RouteProgress,
  type RouteProjection,
} from './progress';
export { TURN_DEG, type IndicationAction, type RouteIndication } from './indications';
export {
  ACCESSIBILITY_MODES,
  DEFAULT_ROUTE_OPTIONS,
  floorLabel,
  route,
  type AccessibilityMode,
  type Route,
  type RouteEdge,
  type RouteEnd,
  type RouteFailure,
  type RouteLine,
  type RouteOptions,
  type RoutePoint,
  type RouteResult,
  type RouteSegment,
} from './route';
