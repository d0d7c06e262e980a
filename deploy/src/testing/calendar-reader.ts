import ICAL from 'ical.js';

/** A round as a calendar app reads it from a feed (by ical.js, Mozilla's parser). */
export interface FeedEvent {
  uid: string;
  summary: string;
  start: string;
  end: string;
  status: string | null;
  sequence: number;
  url: string | null;
  location: string | null;
  geo: number[] | null;
  description: string;
}

/** Every event of an iCalendar text, in the order the feed lists them. */
export function readFeed(text: string): { name: string | null; events: FeedEvent[] } {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const events = calendar.getAllSubcomponents('vevent').map((component) => {
    const event = new ICAL.Event(component);
    const value = (name: string) => component.getFirstPropertyValue(name);
    return {
      uid: event.uid,
      summary: event.summary,
      start: event.startDate.toJSDate().toISOString(),
      end: event.endDate.toJSDate().toISOString(),
      status: (value('status') as string | null) ?? null,
      sequence: event.sequence,
      url: (value('url') as string | null) ?? null,
      location: event.location ?? null,
      geo: (value('geo') as number[] | null) ?? null,
      description: event.description ?? '',
    };
  });
  return { name: (calendar.getFirstPropertyValue('x-wr-calname') as string | null) ?? null, events };
}
