package io.healthmesh.prober;

import io.healthmesh.contract.endpoints.AnnouncedEndpoint;
import io.healthmesh.contract.endpoints.Announcement;
import io.healthmesh.contract.endpoints.Announcements;
import io.netty.util.NetUtil;

import java.net.InetAddress;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * What the workers have announced on the endpoints topic, as this prober read it: the latest announcement per worker,
 * at most {@link #MAX_WORKERS} workers, and what they add to the denied set. Everything here only adds denials: an
 * announcement names endpoints to refuse, and no record can open anything the policy denies. Bounded: a worker
 * beyond {@link #MAX_WORKERS} is not kept, and of all announced endpoints the first {@link #MAX_ENDPOINTS} (in the
 * order the workers were first read) are denied, the rest counted. No announced name is looked up: a name is denied as
 * written, so a record cannot make a prober query DNS. Thread-safe (the feed writes, the refresher reads).
 */
final class AnnouncedEndpoints {

    /** Workers kept. */
    static final int MAX_WORKERS = 1_024;
    /** Endpoints denied, over all workers. */
    static final int MAX_ENDPOINTS = 4_096;

    private final Map<String, Announcement> byWorker = new LinkedHashMap<>();
    private long workersRefused;

    /**
     * What the announcements add to the denied set now.
     *
     * @param addresses endpoints announced as address literals
     * @param names     endpoints announced as host names (lower case), denied as written
     * @param denied    endpoints denied ({@code <= MAX_ENDPOINTS})
     * @param dropped   endpoints over {@link #MAX_ENDPOINTS}, not denied
     * @param expired   workers whose announcement is older than {@link Announcements#MAX_AGE}, not denied
     */
    record Denials(Map<InetAddress, Set<Integer>> addresses, Map<String, Set<Integer>> names, int denied, int dropped,
                   int expired) {
    }

    /**
     * Takes the latest announcement of {@code worker}; {@code null} (a tombstone) forgets it.
     *
     * @return false when a new worker was refused because {@link #MAX_WORKERS} are kept already
     */
    synchronized boolean apply(String worker, Announcement announcement) {
        if (announcement == null) {
            byWorker.remove(worker);
            return true;
        }
        if (!byWorker.containsKey(worker) && byWorker.size() >= MAX_WORKERS) {
            workersRefused++;
            return false;
        }
        byWorker.put(worker, announcement);
        return true;
    }

    /** Workers whose announcement was not kept because {@link #MAX_WORKERS} were. */
    synchronized long workersRefused() {
        return workersRefused;
    }

    /** Workers whose announcement is kept. */
    synchronized int workers() {
        return byWorker.size();
    }

    /** The denials of the announcements not older than {@link Announcements#MAX_AGE} at {@code nowMs}. */
    synchronized Denials denials(long nowMs) {
        Map<InetAddress, Set<Integer>> addresses = new HashMap<>();
        Map<String, Set<Integer>> names = new HashMap<>();
        int denied = 0;
        int dropped = 0;
        int expired = 0;
        long oldest = nowMs - Announcements.MAX_AGE.toMillis();
        for (Announcement announcement : byWorker.values()) {
            if (announcement.announcedAtMs() < oldest) {
                expired++;
                continue;
            }
            for (AnnouncedEndpoint endpoint : announcement.endpoints()) {
                if (denied >= MAX_ENDPOINTS) {
                    dropped++;
                    continue;
                }
                denied++;
                InetAddress literal = NetUtil.createInetAddressFromIpAddressString(endpoint.host());
                if (literal != null) {
                    addresses.computeIfAbsent(literal, a -> new HashSet<>()).add(endpoint.port());
                } else {
                    names.computeIfAbsent(endpoint.host().toLowerCase(java.util.Locale.ROOT), n -> new HashSet<>())
                            .add(endpoint.port());
                }
            }
        }
        return new Denials(addresses, names, denied, dropped, expired);
    }
}
