// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  schemaId?: string;
  data: {
    essentials: {
      alertId?: string;
      alertRule: string;
      severity?: string | null;
      signalType?: string | null;
      monitorCondition: string;
      monitoringService?: string | null;
      alertTargetIDs?: string[] | null;
      configurationItems?: string[] | null;
      originAlertId?: string | null;
      firedDateTime?: string | null;
      resolvedDateTime?: string | null;
      description?: string | null;
      essentialsVersion?: string | null;
      alertContextVersion?: string | null;
      [k: string]: unknown;
    };
    alertContext?: {
      condition?: {
        windowSize?: string | null;
        windowStartTime?: string | null;
        windowEndTime?: string | null;
        allOf?:
          | {
              metricName?: string | null;
              searchQuery?: string | null;
              timeAggregation?: string | null;
              webTestName?: string | null;
              metricValue?: number | string | null;
              alertSensitivity?: string | null;
              operator?: string | null;
              threshold?: number | string | null;
              dimensions?:
                | {
                    name?: string;
                    value?: string | number;
                    [k: string]: unknown;
                  }[]
                | null;
              linkToSearchResultsUI?: string | null;
              linkToFilteredSearchResultsUI?: string | null;
              [k: string]: unknown;
            }[]
          | null;
        [k: string]: unknown;
      } | null;
      SearchQuery?: string | null;
      ResultCount?: number | string | null;
      AlertType?: string | null;
      Operator?: string | null;
      Threshold?: number | string | null;
      SearchIntervalStartTimeUtc?: string | null;
      SearchIntervalEndtimeUtc?: string | null;
      LinkToSearchResultsUI?: string | null;
      LinkToFilteredSearchResultsUI?: string | null;
      operationName?: string | null;
      status?: string | number | null;
      level?: string | number | null;
      caller?: string | null;
      eventTimestamp?: string | null;
      properties?: {
        title?: string | null;
        service?: string | null;
        region?: string | null;
        incidentType?: string | null;
        stage?: string | null;
        trackingId?: string | null;
        currentHealthStatus?: string | null;
        previousHealthStatus?: string | null;
        cause?: string | null;
        details?: string | null;
        communication?: string | null;
        [k: string]: unknown;
      } | null;
      [k: string]: unknown;
    } | null;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
