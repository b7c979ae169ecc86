package io.healthmesh.notifier.domain;

import io.healthmesh.notifier.domain.Notification.Type;
import io.healthmesh.notifier.domain.Position.PartitionRef;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * The open alerts of every route and what to send about them. Fed state events in partition order
 * ({@link #apply}) and the time ({@link #tick}); returns the notifications to deliver.
 *
 * <p>An <em>episode</em> is the time a target (or group) spends in a state its route alerts on. It starts at the
 * event's {@code sinceMs}; it <em>fires</em> once it has lasted the route's minimum duration, measured on the
 * clock while it is open ({@link #tick}), or on the events' own times when its end is read before it fired (a
 * notifier catching up after a stop sends the firing and the resolved of an episode that was long enough, and
 * nothing for one that was not). A fired episode gets a reminder every {@code repeat} and a resolved message when it
 * ends. A firing that is waiting or undelivered holds the position of the record that opened the episode, a resolved
 * message the position of the record that closed it, in the {@link CommitLedger}: so a committed offset means every
 * notification of the records before it was delivered.
 *
 * <p>After a restart the state is rebuilt from the records below the committed offset ({@link #replay}, which sends
 * nothing); an episode still open there had its firing delivered (its record could not have been committed
 * otherwise), except on a consumer group's first start, where open episodes fire as new
 * ({@link #replayDone}). Not thread-safe: one thread (the consumer's) drives it.
 *
 * <p>Maintenance windows (the events' {@code maintenance}, DRAIN or SILENCE alike) hold back new alerts only:
 * an episode that opens under a window does not fire while the window lasts; if it is still open when an event
 * without the window arrives, it fires as a new alert, its minimum duration counted from that event. An episode that
 * was open but had not fired when a window began was down before the window: it never fires, not even after the
 * window. An episode that fired before the window goes on (no reminders while a window covers it) and its
 * resolution is always sent.
 */
public final class AlertBook {

    private final List<RoutePolicy> routes;
    private final CommitLedger ledger;
    private final Map<String, Map<AlertKey, Episode>> episodes = new LinkedHashMap<>();

    /** One open alert on one route. */
    private static final class Episode {
        final long startMs;
        Position anchor;
        Observation last;
        boolean fired;
        long reminders;
        /** Opened under a maintenance window that still covers it: it waits, holding nothing in the ledger. */
        boolean held;
        /** Open and not fired when a window began: down before the window, it never fires. */
        boolean before;
        /** Where the minimum duration is counted from: the start, or the end of the window that held it. */
        long clockFromMs;

        Episode(long startMs, Position anchor, Observation last) {
            this.startMs = startMs;
            this.anchor = anchor;
            this.last = last;
            this.clockFromMs = startMs;
            this.held = last.underMaintenance();
        }

        /** True while the episode may fire (not held by a window, not down before one). */
        boolean mayFire() {
            return !held && !before;
        }
    }

    public AlertBook(List<RoutePolicy> routes, CommitLedger ledger) {
        this.routes = List.copyOf(routes);
        this.ledger = requireNonNull(ledger, "ledger");
        // insertion order: firings of one tick go out in the order their records were read
        this.routes.forEach(r -> episodes.put(r.route(), new LinkedHashMap<>()));
    }

    /** A record below the partition's floor: updates the open episodes, sends nothing, holds nothing. */
    public void replay(Observation o) {
        for (RoutePolicy route : routes) {
            Map<AlertKey, Episode> open = episodes.get(route.route());
            if (route.filter().alerting(o)) {
                Episode e = open.get(o.key());
                if (e == null) {
                    open.put(o.key(), new Episode(o.sinceMs(), o.position(), o));
                } else {
                    maintenance(e, o, false);
                    e.last = o;
                }
            } else {
                open.remove(o.key());
            }
        }
    }

    /**
     * The partition's records below its floor are all replayed. Its open episodes are taken as already fired when
     * {@code assumeNotified} (the group committed past them), else they wait for their firing like new ones.
     */
    public void replayDone(PartitionRef partition, boolean assumeNotified, long nowMs) {
        for (RoutePolicy route : routes) {
            for (Episode e : episodes.get(route.route()).values()) {
                if (!e.anchor.partitionRef().equals(partition)) {
                    continue;
                }
                if (!e.mayFire()) {
                    continue; // held by a window or down before one: nothing was or will be sent for it yet
                }
                if (assumeNotified) {
                    e.fired = true;
                    e.reminders = remindersPassed(route, e, nowMs);
                } else {
                    ledger.hold(e.anchor);
                }
            }
        }
    }

    /** A live record: opens, updates or closes episodes; returns what must be sent at once (closings). */
    public List<Notification> apply(Observation o, long nowMs) {
        List<Notification> out = new ArrayList<>();
        for (RoutePolicy route : routes) {
            Map<AlertKey, Episode> open = episodes.get(route.route());
            Episode e = open.get(o.key());
            if (route.filter().alerting(o)) {
                if (e == null) {
                    e = new Episode(o.sinceMs(), o.position(), o);
                    open.put(o.key(), e);
                    if (e.mayFire()) {
                        ledger.hold(o.position());
                    }
                } else {
                    maintenance(e, o, true);
                }
                e.last = o;
            } else if (e != null) {
                open.remove(o.key());
                close(route, e, o, nowMs, out);
            }
        }
        ledger.processed(o.position());
        return out;
    }

    /**
     * An open episode meets another alerting observation: a window that begins before it fired makes it one that was
     * down before the window (never fires); the end of the window that held it makes it a new alert from then on.
     * {@code live} says whether the ledger is told (not while replaying).
     */
    private void maintenance(Episode e, Observation o, boolean live) {
        if (!e.fired && !e.held && !e.before && o.underMaintenance()) {
            e.before = true;
            if (live) {
                ledger.release(e.anchor);
            }
        } else if (e.held && !o.underMaintenance()) {
            e.held = false;
            e.clockFromMs = Math.max(e.startMs, o.atMs());
            e.anchor = o.position();
            if (live) {
                ledger.hold(o.position());
            }
        }
    }

    private void close(RoutePolicy route, Episode e, Observation end, long nowMs, List<Notification> out) {
        long endMs = Math.max(end.sinceMs(), e.startMs);
        if (!e.fired) {
            if (!e.mayFire()) {
                return; // held by a window or down before one: never fired, nothing to resolve, nothing held
            }
            if (endMs - e.clockFromMs < route.minDuration().toMillis()) {
                ledger.release(e.anchor); // too short: never fires, nothing to resolve
                return;
            }
            out.add(new Notification(route.route(), Type.FIRING, e.last.key(), e.startMs, -1, 0, e.last, e.anchor,
                    dueOf(route, e)));
        }
        if (route.resolved()) {
            ledger.hold(end.position());
            out.add(new Notification(route.route(), Type.RESOLVED, end.key(), e.startMs, endMs, 0,
                    resolvedState(e.last, end), end.position(), nowMs));
        }
    }

    /** A deletion keeps the last known group and labels, so the resolved message still routes and reads well. */
    private static Observation resolvedState(Observation last, Observation end) {
        if (!end.deleted()) {
            return end;
        }
        return new Observation(end.key(), end.position(), last.group(), last.labels(), null, end.sinceMs(),
                "deleted", null);
    }

    /** Firings whose minimum duration has passed and reminders that are due. */
    public List<Notification> tick(long nowMs) {
        List<Notification> out = new ArrayList<>();
        for (RoutePolicy route : routes) {
            for (Episode e : episodes.get(route.route()).values()) {
                long due = dueOf(route, e);
                if (!e.fired) {
                    if (!e.mayFire() || nowMs < due) {
                        continue;
                    }
                    e.fired = true;
                    e.reminders = remindersPassed(route, e, nowMs);
                    out.add(new Notification(route.route(), Type.FIRING, e.last.key(), e.startMs, -1, 0, e.last,
                            e.anchor, due));
                    continue;
                }
                long passed = remindersPassed(route, e, nowMs);
                if (e.last.underMaintenance()) {
                    e.reminders = passed; // no reminders while a window covers the target; none owed after it
                    continue;
                }
                if (passed > e.reminders) {
                    e.reminders = passed;
                    out.add(new Notification(route.route(), Type.REMINDER, e.last.key(), e.startMs, -1,
                            (int) Math.min(Integer.MAX_VALUE, passed), e.last, null,
                            due + passed * route.repeat().toMillis()));
                }
            }
        }
        return out;
    }

    /** Forgets the episodes of a partition this instance no longer owns (their new owner rebuilds them). */
    public void forget(PartitionRef partition) {
        for (Map<AlertKey, Episode> open : episodes.values()) {
            for (Iterator<Episode> it = open.values().iterator(); it.hasNext(); ) {
                if (it.next().anchor.partitionRef().equals(partition)) {
                    it.remove();
                }
            }
        }
    }

    /** Open episodes of a route (fired or waiting for their minimum duration). */
    public int open(String route) {
        Map<AlertKey, Episode> open = episodes.get(route);
        return open == null ? 0 : open.size();
    }

    private static long dueOf(RoutePolicy route, Episode e) {
        return e.clockFromMs + route.minDuration().toMillis();
    }

    private static long remindersPassed(RoutePolicy route, Episode e, long nowMs) {
        long repeat = route.repeat().toMillis();
        long due = dueOf(route, e);
        return repeat <= 0 || nowMs < due ? 0 : (nowMs - due) / repeat;
    }
}
