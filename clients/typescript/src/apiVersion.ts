// GENERATED from openapi/openapi.json by openapi-typescript (`npm run generate`): do not edit.

/** The version of the API document (`info.version`) these types were generated from. */
export const API_VERSION = "0.1.0";
