export * from './errors/error-code';
export * from './common/api-response';
export * from './common/localized.dto';
export * from './users/login.dto';
export * from './users/user-info';
export * from './streaming/stream-event';
