import type { Projection } from '../projection.ts';
import { accountsProjection } from './accounts/projection.ts';

/** Every read model the projector maintains, in the order they are applied. */
export const projections: readonly Projection[] = [accountsProjection];
