import type { Projection } from '../projection.ts';
import { accountsProjection } from './accounts/projection.ts';
import { coursesProjection } from './courses/projection.ts';

/** Every read model the projector maintains, in the order they are applied. */
export const projections: readonly Projection[] = [accountsProjection, coursesProjection];
