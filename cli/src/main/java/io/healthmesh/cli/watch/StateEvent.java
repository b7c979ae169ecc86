package io.healthmesh.cli.watch;

import io.healthmesh.schema.GroupHealth;
import io.healthmesh.schema.TargetHealth;

/**
 * One thing {@link StateFeed} saw on the state topics. {@code current} is true for the state that was already there
 * when the feed started (the compacted topics read to their end), false for a change seen live.
 */
public sealed interface StateEvent {

    boolean current();

    /** A target state event, with the target's previous state when the feed knows it. */
    record Target(TargetHealth health, TargetHealth previous, boolean current) implements StateEvent {
    }

    /** A group state event, with the group's previous state when the feed knows it. */
    record Group(GroupHealth health, GroupHealth previous, boolean current) implements StateEvent {
    }

    /** A tombstone: the target or group is gone. */
    record Removed(Kind kind, String id, boolean current) implements StateEvent {
    }

    /** What a tombstone removed. */
    enum Kind { TARGET, GROUP }

    /** The feed has reached the end of both topics: everything after this is live. */
    record CaughtUp(int targets, int groups) implements StateEvent {
        @Override
        public boolean current() {
            return true;
        }
    }

    /** A record that could not be decoded (skipped). */
    record Undecodable(String topic, String key, String reason) implements StateEvent {
        @Override
        public boolean current() {
            return false;
        }
    }
}
