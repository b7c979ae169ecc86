package io.healthmesh.bench.load;

import io.healthmesh.bench.run.BenchReport;
import io.healthmesh.bench.run.PublishCostPhase;
import io.healthmesh.prober.PublishTuning;
import picocli.CommandLine.Option;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The publishing-cost phase: bytes and CPU per result for each compression, linger and batch size, on a broker of
 * its own. Its flags, their defaults per mode, and the step itself.
 */
public final class PublishCostStep {

    /** Targets whose results the phase publishes. */
    private static final int TARGETS = 10_000;

    @Option(names = "--publish-cost", negatable = true, description = "Run the publishing-cost phase (bytes and CPU "
            + "per result for each --publish-codecs x --publish-linger-ms, on a broker of its own; default on in the "
            + "full mode, off in the short one).")
    Boolean publishCost;
    @Option(names = "--publish-cost-only", description = "Run only the publishing-cost phase.")
    boolean publishCostOnly;
    @Option(names = "--publish-codecs", split = ",", defaultValue = "none,lz4,zstd,snappy,gzip",
            description = "Compressions of the publishing-cost phase.")
    List<String> publishCodecs;
    @Option(names = "--publish-linger-ms", split = ",", defaultValue = "5,20,50",
            description = "Linger values of the publishing-cost phase.")
    List<Integer> publishLingers;
    @Option(names = "--publish-batch-bytes", split = ",", defaultValue = "16384",
            description = "Batch sizes of the publishing-cost phase.")
    List<Integer> publishBatches;
    @Option(names = "--publish-rate", defaultValue = "10000", description = "Results per second of the publishing-cost phase.")
    int publishRate;
    @Option(names = "--publish-window-s", defaultValue = "5", description = "Window of each publishing-cost tuning "
            + "(after a warm-up of half as long).")
    int publishWindowSeconds;

    /** Fills in the mode's default. */
    public void defaults(boolean isShort) {
        publishCost = publishCost != null ? publishCost : !isShort;
    }

    /** Whether the phase runs after the others. */
    public boolean enabled() {
        return publishCost;
    }

    /** Whether the phase is the whole run. */
    public boolean only() {
        return publishCostOnly;
    }

    /** Runs the phase; a failure is reported, not thrown. */
    public void run(BenchReport report) {
        List<PublishTuning> tunings = new ArrayList<>();
        for (int batch : publishBatches) {
            for (int linger : publishLingers) {
                for (String codec : publishCodecs) {
                    tunings.add(new PublishTuning(codec, linger, batch));
                }
            }
        }
        String load = String.format(Locale.ROOT, "load average %.2f when the phase started",
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        try {
            report.publishCost(PublishCostPhase.run(tunings, TARGETS, publishRate,
                    Duration.ofMillis(publishWindowSeconds * 500L), Duration.ofSeconds(publishWindowSeconds)),
                    TARGETS, load);
        } catch (Exception e) {
            report.failed(7, "publishing cost", e);
        }
    }
}
