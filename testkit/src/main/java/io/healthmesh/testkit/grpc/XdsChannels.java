package io.healthmesh.testkit.grpc;

import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.NameResolverRegistry;
import io.grpc.xds.XdsNameResolverProvider;

import java.util.List;
import java.util.Map;

/**
 * Channels of grpc-java's own xDS client (proxyless gRPC) for tests: {@code <scheme>:///<group>} with a bootstrap
 * naming one xDS server on loopback, given in code rather than through the {@code GRPC_XDS_BOOTSTRAP} file, so that
 * tests of one JVM each talk to their own server.
 */
public final class XdsChannels {

    private XdsChannels() {
    }

    /**
     * A channel to the cluster {@code group} whose xDS client's bootstrap names the server on {@code 127.0.0.1:port}
     * (plaintext). The caller shuts it down.
     */
    public static ManagedChannel open(String group, int port, String nodeId) {
        String scheme = "hmxds" + Integer.toUnsignedString((group + "@" + port + "@" + nodeId).hashCode());
        Map<String, Object> server = Map.of("server_uri", "127.0.0.1:" + port,
                "channel_creds", List.of(Map.of("type", "insecure")), "server_features", List.of("xds_v3"));
        Map<String, Object> bootstrap = Map.of("xds_servers", List.of(server),
                "node", Map.of("id", nodeId, "cluster", "test"));
        NameResolverRegistry.getDefaultRegistry().register(XdsNameResolverProvider.createForTest(scheme, bootstrap));
        return Grpc.newChannelBuilder(scheme + ":///" + group, InsecureChannelCredentials.create()).build();
    }
}
