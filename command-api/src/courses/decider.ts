import { type CourseEvent, decodeCourseEvent } from '@portal/contracts/courses/course.events';
import type { Decider } from '../core/command-handler.ts';
import { type Course, evolve, initialState } from './course.ts';
import { type CourseCommand, decide } from './decide.ts';

export const courseDecider: Decider<Course, CourseEvent, CourseCommand> = {
  initialState,
  evolve,
  decode: decodeCourseEvent,
  decide,
};
