package io.healthmesh.status.board;

import java.util.List;

/** Board rows for the status module's tests: a target row with fixed times and the regions given. */
public final class BoardRows {

    private BoardRows() {
    }

    /** A row of target {@code id} in {@code group}, last outcome SUCCESS, quorum MAJORITY. */
    public static TargetRow row(String id, String group, String status, boolean stale, RegionRow... regions) {
        return new TargetRow(id, group, status, null, 1_000, "SUCCESS", null, stale, 1_500L, 900L, "MAJORITY",
                List.of(regions), 1_000);
    }
}
