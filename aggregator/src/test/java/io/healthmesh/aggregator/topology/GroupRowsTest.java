package io.healthmesh.aggregator.topology;

import io.healthmesh.core.maintenance.MaintenanceMode;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.utils.Bytes;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The group's maintenance row: read back as written, outside its members' and routable ranges, a bad one named. */
class GroupRowsTest {

    @Test
    void aWindowRowReadsBackAsWritten() {
        MaintenanceRow.Emitted w = new MaintenanceRow.Emitted("m-1", MaintenanceMode.DRAIN, 1_000L, 2_000L);
        assertThat(GroupRows.decodeWindow(GroupRows.encodeWindow(w))).isEqualTo(w);
        assertThat(GroupRows.decodeWindow(null)).isNull();
    }

    @Test
    void theWindowRowLiesOutsideTheMemberAndRoutableRanges() {
        Bytes window = GroupRows.windowKey("web");
        for (byte kind : new byte[] {GroupRows.MEMBER, GroupRows.ROUTABLE}) {
            // a kind's rows are read from prefix(kind) up to prefix(kind + 1), as RoutableList does
            boolean inside = window.compareTo(GroupRows.prefix("web", kind)) >= 0
                    && window.compareTo(GroupRows.prefix("web", (byte) (kind + 1))) < 0;
            assertThat(inside).as("kind %c", (char) kind).isFalse();
        }
    }

    @Test
    void anUnknownFormatIsNamed() {
        byte[] row = GroupRows.encodeWindow(new MaintenanceRow.Emitted("m", MaintenanceMode.SILENCE, 1, 2));
        row[0] = 9;
        assertThatThrownBy(() -> GroupRows.decodeWindow(row)).isInstanceOf(SerializationException.class)
                .hasMessageContaining("group-members maintenance row format version: 9");
    }
}
