package io.healthmesh.haproxy.runtime;

import io.healthmesh.haproxy.plan.ActualServer;
import io.healthmesh.haproxy.plan.ServerState;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ServersStateTableTest {

    /** As HAProxy 2.6 answers, a server in maintenance, one ready, one given a host name, one draining. */
    private static final String ANSWER = """
            1
            # be_id be_name srv_id srv_name srv_addr srv_op_state srv_admin_state srv_uweight srv_iweight \
            srv_time_since_last_change srv_check_status srv_check_result srv_check_health srv_check_state \
            srv_agent_state bk_f_forced_id srv_f_forced_id srv_fqdn srv_port srvrecord srv_use_ssl srv_check_port \
            srv_check_addr srv_agent_addr srv_agent_port
            3 web 1 a 127.0.0.1 0 1 5 5 0 1 0 0 0 0 0 0 - 8001 - 0 0 - - 0
            3 web 2 b ::1 2 0 1 1 0 1 0 0 0 0 0 0 - 8002 - 0 0 - - 0
            3 web 4 d - 0 1 1 1 0 1 0 0 0 0 0 0 localhost 8004 - 0 0 - - 0
            3 web 5 e 10.0.0.5 2 8 7 7 0 1 0 0 0 0 0 0 - 80 - 0 0 - - 0
            """;

    @Test
    void readsNameAddressPortWeightAndAdminState() {
        assertThat(ServersStateTable.parse(ANSWER)).hasValueSatisfying(servers -> assertThat(servers).containsExactly(
                new ActualServer("a", "127.0.0.1", null, 8001, 5, ServerState.MAINT),
                new ActualServer("b", "::1", null, 8002, 1, ServerState.READY),
                new ActualServer("d", null, "localhost", 8004, 1, ServerState.MAINT),
                new ActualServer("e", "10.0.0.5", null, 80, 7, ServerState.DRAIN)));
    }

    @Test
    void anEmptyBackendIsAnEmptyListAndAnUnknownOneIsEmpty() {
        assertThat(ServersStateTable.parse(ANSWER.lines().limit(2).reduce("", (a, b) -> a + b + "\n")))
                .hasValueSatisfying(servers -> assertThat(servers).isEmpty());
        assertThat(ServersStateTable.parse("Can't find backend.\n")).isEmpty();
    }

    @Test
    void maintenanceNotSetByHandIsNotTheDriversOwn() {
        assertThat(ServersStateTable.state(0x02)).as("inherited from a tracked server").isEqualTo(ServerState.READY);
        assertThat(ServersStateTable.state(0x04)).as("disabled in haproxy.cfg").isEqualTo(ServerState.MAINT);
        assertThat(ServersStateTable.state(0x09)).isEqualTo(ServerState.MAINT);
    }

    @Test
    void anythingElseIsAClearError() {
        assertThatThrownBy(() -> ServersStateTable.parse("Permission denied\n"))
                .hasMessage("unexpected answer to show servers state: Permission denied");
        assertThatThrownBy(() -> ServersStateTable.parse("1\n# be_id srv_name\n3 a\n"))
                .hasMessageContaining("has no column srv_addr");
    }
}
