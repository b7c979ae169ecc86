package io.healthmesh.probe.tcp;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.TcpSpec;
import io.healthmesh.probe.ProbeContext;
import io.healthmesh.probe.ProbeFixtures;
import io.healthmesh.probe.Targets;
import io.healthmesh.probe.transport.ResponseByteCounter;
import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** The TCP exchange handler on its own, fed bytes by hand; no sockets, no clock. */
class TcpExchangeHandlerTest {

    @Test
    void tcpHandlerSendsThePayloadAndMatchesTheResponse() throws Exception {
        ProbeContext probe = ProbeFixtures.onOwnLoop(Targets.tcp(6379, 2000).withTcp(new TcpSpec("PING\r\n", "+PONG")));
        EmbeddedChannel channel = new EmbeddedChannel(new ResponseByteCounter(probe),
                new TcpExchangeHandler(probe, probe.target().tcp(), 5120));
        ByteBuf sent = channel.readOutbound();
        assertThat(sent.toString(StandardCharsets.UTF_8)).isEqualTo("PING\r\n");
        sent.release();
        channel.writeInbound(ProbeFixtures.ascii("+PO"));
        assertThat(ProbeFixtures.report(probe)).isNotDone();
        channel.writeInbound(ProbeFixtures.ascii("NG\r\n"));
        assertThat(ProbeFixtures.report(probe).join().outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(ProbeFixtures.report(probe).join().bytesRead()).isEqualTo(7);
    }
}
