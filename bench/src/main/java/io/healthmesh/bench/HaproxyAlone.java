package io.healthmesh.bench;

import io.healthmesh.bench.farm.FarmLayout;
import io.healthmesh.bench.farm.TargetFarm;
import io.healthmesh.bench.peers.HaproxyPeer;
import io.healthmesh.bench.run.PeerCpuPhase;
import io.healthmesh.bench.run.WorkFiles;
import io.healthmesh.core.target.Protocol;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * HAProxy alone against the load driver's farm, its CPU per check printed every second: how far one short peer
 * window's reading can scatter on a shared machine with nothing else running (docs/BENCHMARKS.md, "The short
 * mode"). Usage: {@code java -cp bench/target/benchmarks.jar io.healthmesh.bench.HaproxyAlone TCP|HTTP SERVERS
 * SECONDS} (interval 1 s, rise and fall 3, as in the load driver's peer windows).
 */
public final class HaproxyAlone {

    private HaproxyAlone() {
    }

    public static void main(String[] args) throws Exception {
        Protocol protocol;
        int servers;
        int seconds;
        try {
            if (args.length != 3) {
                throw new IllegalArgumentException(args.length + " arguments");
            }
            protocol = Protocol.valueOf(args[0].toUpperCase(Locale.ROOT));
            servers = Integer.parseInt(args[1]);
            seconds = Integer.parseInt(args[2]);
            if (protocol != Protocol.TCP && protocol != Protocol.HTTP || servers < 1 || servers > 100_000
                    || seconds < 1 || seconds > 600) {
                throw new IllegalArgumentException(String.join(" ", args));
            }
        } catch (IllegalArgumentException e) {
            System.err.println("usage: HaproxyAlone TCP|HTTP SERVERS SECONDS (1..100000 servers, 1..600 seconds); got: "
                    + e.getMessage());
            System.exit(2);
            return;
        }
        Path dir = Files.createTempDirectory("haproxy-alone");
        // the load driver's farm: 200 TCP listeners, 10 HTTP listeners of 20 paths, one event-loop thread
        try (TargetFarm farm = TargetFarm.start(FarmLayout.of(200, 10, 20, 0), 1);
             HaproxyPeer haproxy = HaproxyPeer.start(HaproxyPeer.DEFAULT_BINARY, dir,
                     PeerCpuPhase.roundRobin(farm.targets(protocol), servers), 1_000, 1_000, 3, 3, 1_000)) {
            long cpu = haproxy.cpuNanos();
            long at = System.nanoTime();
            for (int s = 1; s <= seconds; s++) {
                Thread.sleep(1_000); // one reading a second; each is divided by the time that really passed
                long cpuNow = haproxy.cpuNanos();
                long now = System.nanoTime();
                double checks = servers * (now - at) / 1e9;
                System.out.printf(Locale.ROOT, "%3d s: %.1f µs of HAProxy CPU per check, %d failed checks%n", s,
                        (cpuNow - cpu) / 1e3 / checks, haproxy.failedChecks());
                cpu = cpuNow;
                at = now;
            }
        } finally {
            WorkFiles.deleteTree(dir);
        }
    }
}
