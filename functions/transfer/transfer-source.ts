/** The BC Transfer Guide's source name: what its ingestion owns, and the part of keys that says so. */
export const TRANSFER_SOURCE = 'bctransferguide';
