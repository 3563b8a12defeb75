// The public face of the runtime layer (docs/CONTRIBUTING.md §Layers): what other layers and services
// import, by name.
// The process configs: one per process, loaded and validated once at start (docs/configuration.md).
export {
  changeLogTopicsOf,
  ConfigError,
  loadConfig,
  loadGatewayConfig,
  loadIngestionConfig,
  loadLineageConfig,
  type Config,
  type EventTopicName,
  type GatewayConfig,
  type IngestionConfig,
  type LineageConfig,
  type ServiceConfig,
} from './config.ts';
// The process logger.
export { createLogger, type Logger } from './logger.ts';
// Request ids, carried through a request.
export { currentRequestId, REQUEST_ID_HEADER, requestIdFrom, runInRequest } from './request-context.ts';
// Read-your-writes across processes (Neo4j bookmarks).
export { BOOKMARK_HEADER, runCausally } from './causality.ts';
