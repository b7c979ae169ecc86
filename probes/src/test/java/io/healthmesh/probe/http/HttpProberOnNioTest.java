package io.healthmesh.probe.http;

import io.healthmesh.probe.NettyProbeEngine;
import io.healthmesh.probe.ProbeEngineConfig;
import io.healthmesh.probe.transport.ProbeTransport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link HttpProberTest}'s tests through a Netty channel (NIO): the path of HTTPS and of every transport but epoll. */
class HttpProberOnNioTest extends HttpProberTest {

    @BeforeAll
    static void startEngine() {
        engine = NettyProbeEngine.create(ProbeEngineConfig.defaults().withAllowList(ProbeEngineConfig.LOOPBACK)
                .withEventLoopThreads(2).withTransport(ProbeTransport.NIO), null);
    }

    @Test
    void theseTestsRunThroughAChannel() {
        assertThat(engine.transport().kind()).isEqualTo(ProbeTransport.NIO);
    }
}
