package io.healthmesh.contract.endpoints;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * What one worker announces: its role, when it wrote this, and the endpoints of its listeners.
 *
 * @param announcedAtMs epoch ms of the writing; readers stop denying an announcement older than
 *                      {@link Announcements#MAX_AGE}
 */
public record Announcement(String role, long announcedAtMs, List<AnnouncedEndpoint> endpoints) {

    public Announcement {
        requireNonNull(role, "role");
        endpoints = List.copyOf(endpoints);
    }
}
