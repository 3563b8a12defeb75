import { changeLogTopicsFromEnv, ConfigError } from './config.ts';

describe('changeLogTopicsFromEnv (what an operator CLI records)', () => {
  test('both topics by default, none when the Events API is off, the named ones otherwise', () => {
    expect(changeLogTopicsFromEnv({})).toEqual(['PlatformEvent_v1', 'MetadataChangeLog_Versioned_v1']);
    expect(changeLogTopicsFromEnv({ EVENTS_API_ENABLED: 'false', EVENTS_TOPICS: 'PlatformEvent_v1' })).toEqual([]);
    expect(changeLogTopicsFromEnv({ EVENTS_TOPICS: ' PlatformEvent_v1 ' })).toEqual(['PlatformEvent_v1']);
  });

  test('an unknown topic is refused as the services refuse it, naming the variable', () => {
    expect(() => changeLogTopicsFromEnv({ EVENTS_TOPICS: 'PlatformEvent_v1,Nope' })).toThrow(ConfigError);
    expect(() => changeLogTopicsFromEnv({ EVENTS_TOPICS: 'Nope' })).toThrow(/EVENTS_TOPICS/);
  });
});
