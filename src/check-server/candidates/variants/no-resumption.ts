/**
 * Variant `no-resumption`: streamable HTTP only, no event store. The SDK then sends no event IDs
 * and ignores `Last-Event-ID` (a GET is a plain standalone stream). The spec allows it: resumption
 * is something a server MAY offer.
 */
import { startSdkVariant } from './sdk-variant.js';

export default () => startSdkVariant({});
