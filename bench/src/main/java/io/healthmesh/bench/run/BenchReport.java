package io.healthmesh.bench.run;

import io.healthmesh.core.target.TargetSpec;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The run's figures as Markdown, section by section as the phases finish (a phase that fails leaves its reason
 * instead of figures), with the targets and, where a figure misses one, by how much.
 */
public final class BenchReport {

    /** The goal for TCP probes per second per prober core (docs/BENCHMARKS.md, "Goals: met and missed"). */
    static final double TCP_PER_CORE_GOAL = 25_000;
    /** The earlier goal for HTTP probes per second per prober core, still reported (the current goals set none). */
    static final double HTTP_PER_CORE_GOAL = 10_000;

    private final StringBuilder md = new StringBuilder();
    private final java.util.SortedMap<Integer, StringBuilder> sections = new java.util.TreeMap<>();
    private final List<String> verdicts = new ArrayList<>();
    private final List<ThroughputPhase.Figure> throughput = new ArrayList<>();
    private final List<String> warmups = new ArrayList<>();

    public BenchReport(String command, String date, String machine, String mode) {
        md.append("## Run of ").append(date).append("\n\n")
                .append("- command: `").append(command).append("`\n")
                .append("- machine: ").append(machine).append('\n')
                .append("- mode: ").append(mode).append("\n\n");
    }

    public void throughput(ThroughputPhase.Figure f) {
        if (throughput.isEmpty()) {
            section(1).append("### 1. Probes per second per core, publishing to Kafka included\n\n")
                    .append("The prober runs alone in a child JVM; its CPU is read from /proc (user + system, every "
                            + "thread: probing, scheduling, Avro, the Kafka producer; the JIT compiler threads' CPU is left out "
                            + "where the warm-up line below says so). The broker, the farm and the driver run in "
                            + "another JVM on the same 2 cores.\n\n")
                    .append("| protocol | targets x interval | asked /s | done /s | prober CPU (cores) | probes/s per core "
                            + "| CPU µs per probe | of which kernel | lag p50 / p99 / max (ms) | failed probes |\n")
                    .append("|---|---|---|---|---|---|---|---|---|---|\n");
        }
        throughput.add(f);
        if (!f.warmup().isEmpty()) {
            warmups.add(f.warmup());
            if (f.warmup().contains("not settled")) {
                verdicts.add(f.protocol() + " warm-up did not settle before its upper bound: the JIT or the machine "
                        + "was still busy, its CPU per probe may read high (see the warm-up lines)");
            }
        }
        section(1).append(String.format(Locale.ROOT, "| %s | %d x %d ms | %.0f | %.0f | %.2f | %.0f | %.1f | %.0f%% | %s | %s |%n",
                f.protocol(), f.targets(), f.intervalMs(), f.offeredPerSecond(), f.achievedPerSecond(),
                f.proberCores(), f.perCore(), f.cpuMicrosPerProbe(), 100 * f.systemShare(), lag(f), failures(f)));
        double goal = f.protocol().isLayer7() ? HTTP_PER_CORE_GOAL : TCP_PER_CORE_GOAL;
        boolean lagOk = f.lagP99Micros() < 50_000;
        verdicts.add(String.format(Locale.ROOT, "%s probes/s per core: %.0f against >= %.0f (%s); lag p99 %.1f ms "
                        + "against < 50 ms (%s); %.2f%% of the probes failed against a farm that was up",
                f.protocol(), f.perCore(), goal, ratioText(f.perCore(), goal), f.lagP99Micros() / 1000,
                lagOk ? "met" : "missed by " + fmt(f.lagP99Micros() / 1000 - 50) + " ms",
                100.0 * f.failures() / (f.achievedPerSecond() * f.windowSeconds())));
    }

    public void peers(List<PeerCpuPhase.Figure> peers) {
        section(1).append("\n#### Peers on the same farm, same run\n\n")
                .append("HAProxy checks the same number of servers (round robin over the same farm targets) at the "
                        + "same interval, rise 3 fall 3, health checks only; blackbox_exporter is scraped at the rate "
                        + "healthmesh achieved. CPU from /proc the same way.\n\n")
                .append("| peer | protocol | asked /s | done /s | peer CPU (cores) | peer CPU µs per check | healthmesh "
                        + "CPU µs per probe | healthmesh / peer CPU per check | note |\n")
                .append("|---|---|---|---|---|---|---|---|---|\n");
        for (PeerCpuPhase.Figure p : peers) {
            ThroughputPhase.Figure hm = throughput.stream().filter(t -> t.protocol() == p.protocol()).findFirst()
                    .orElse(null);
            double ours = hm == null ? Double.NaN : hm.cpuMicrosPerProbe();
            double ratio = ours / p.cpuMicrosPerCheck();
            boolean isVoid = p.voidReason() != null;
            section(1).append(String.format(Locale.ROOT, "| %s | %s | %.0f | %.0f | %.2f | %.1f | %.1f | %s | %s |%n",
                    p.peer(), p.protocol(), p.askedPerSecond(), p.achievedPerSecond(), p.cores(),
                    p.cpuMicrosPerCheck(), ours, isVoid ? "void" : String.format(Locale.ROOT, "%.2f", ratio),
                    isVoid ? p.note() + "; **void**: " + p.voidReason() : p.note()));
            if (isVoid) {
                verdicts.add(String.format(Locale.ROOT, "%s CPU per check vs %s: void (%s)", p.protocol(),
                        p.peer().equals("haproxy") ? "HAProxy" : p.peer(), p.voidReason()));
            } else if (p.peer().equals("haproxy")) {
                verdicts.add(String.format(Locale.ROOT, "%s CPU per check vs HAProxy: %.2fx against <= 1.3x (%s)",
                        p.protocol(), ratio, ratio <= 1.3 ? "met" : "missed by " + fmt(ratio - 1.3) + "x"));
            } else {
                double below = p.cpuMicrosPerCheck() / ours;
                verdicts.add(String.format(Locale.ROOT, "%s CPU per check vs blackbox_exporter: %.1fx below it "
                        + "against >= 10x (%s)", p.protocol(), below, below >= 10 ? "met" : "missed by "
                        + fmt(10 - below) + "x"));
            }
        }
    }

    public void latency(long[] micros, long[] toResult, long[] toAggregator, long[] toConsumer, long commitIntervalMs) {
        section(2).append("\n### 2. Probe completion to state event at a consumer\n\n")
                .append("A state-changing probe's completion (its start plus its latency, stamped by the prober) to "
                        + "the instant a `read_committed` consumer received the event (aggregator with exactly-once, "
                        + "commit interval ").append(commitIntervalMs).append(" ms). Samples: the state changes of "
                        + "the detection phase.\n\n")
                .append("| span | samples | p50 | p99 | max |\n|---|---|---|---|---|\n")
                .append(latencyRow("probe completion -> event at the consumer", micros))
                .append(latencyRow("of which: completion -> aggregator wrote the event", toAggregator))
                .append(latencyRow("... of that: completion -> the result read from the results topic by the "
                        + "driver (the prober's publishing, the broker)", toResult))
                .append(latencyRow("of which: aggregator wrote -> consumer received (commit, read_committed)",
                        toConsumer));
        double p99 = LongSamples.percentile(micros, 99) / 1000;
        double goal = commitIntervalMs + 50; // the goal: the commit interval plus 50 ms
        if (micros.length == 0) {
            verdicts.add("probe -> event: no sample (see the detection table)");
            return;
        }
        verdicts.add(String.format(Locale.ROOT, "probe -> event p99: %.1f ms against <= %.0f ms (commit interval + "
                + "50 ms) (%s)", p99, goal, p99 <= goal ? "met" : "missed by " + fmt(p99 - goal) + " ms"));
    }

    public void detection(DetectionPhase.Result r) {
        section(3).append("\n### 3. Detection time against the BEHAVIOUR.md section 5 formula\n\n")
                .append(String.format(Locale.ROOT, "Interval %d ms, thresholds %d/%d, each target flipped down and "
                        + "up once at a random instant. healthmesh: flip to the state event at the consumer; error = "
                        + "that instant minus (first probe that saw the change + the formula's window). HAProxy (same "
                        + "targets, inter %d rise %d fall %d, at the same time): flip to its log line.%n%n",
                        r.intervalMs(), r.thresholds(), r.thresholds(), r.intervalMs(), r.thresholds(), r.thresholds()))
                .append("| protocol | to | flips | healthmesh flip->event p50 / p99 / max (ms) | error vs formula p50 / "
                        + "p99 / max (ms) | of which: deciding probe's start vs schedule p50 / p99 | of which: its "
                        + "completion -> event p50 / p99 | formula window | HAProxy flip->log p50 / p99 / max (ms) | "
                        + "healthmesh / HAProxy (p50) | missed (hm / HAProxy) |\n")
                .append("|---|---|---|---|---|---|---|---|---|---|---|\n");
        long worstError = Long.MIN_VALUE;
        for (DetectionPhase.Figure f : r.figures()) {
            double ratio = LongSamples.percentile(f.healthmeshMs(), 50) / LongSamples.percentile(f.haproxyMs(), 50);
            section(3).append(String.format(Locale.ROOT,
                    "| %s | %s | %d | %s | %s | %s | %s | %s | %s | %.2f | %d / %d |%n",
                    f.protocol(), f.toUp() ? "HEALTHY" : "UNHEALTHY", f.flips(), triple(f.healthmeshMs()),
                    triple(f.healthmeshErrorMs()), pair(f.scheduleMs()), pair(f.pipelineMs()), f.formula(),
                    triple(f.haproxyMs()), ratio, f.missedHealthmesh(), f.missedHaproxy()));
            if (f.healthmeshErrorMs().length > 0) {
                worstError = Math.max(worstError, (long) LongSamples.percentile(f.healthmeshErrorMs(), 99));
            }
        }
        if (r.rehearsal() != null) {
            section(3).append("\nAn unmeasured first round of the same flips came before (so that the paths a state "
                    + "change takes were compiled, as in a checker that has run for a while): ").append(r.rehearsal())
                    .append(".\n");
        }
        if (r.jitGate() != null) {
            section(3).append("\nBefore the flips, ").append(r.jitGate()).append(".\n");
        }
        if (r.aggregatorGate() != null) {
            section(3).append("\nBefore the flips, ").append(r.aggregatorGate()).append(".\n");
        }
        verdicts.add(worstError == Long.MIN_VALUE ? "detection error: no sample (see the table)"
                : String.format(Locale.ROOT, "detection error p99 (worst case of the four): %d ms against <= +100 ms "
                + "(%s)", worstError, worstError <= 100 ? "met" : "missed by " + (worstError - 100) + " ms"));
    }

    public void capacity(CapacityPhase.Figure f) {
        ThroughputPhase.Figure l = f.load();
        section(4).append("\n### 4. Heap per target, and 6. targets held by one prober at a 10 s interval\n\n")
                .append("Live heap (total of `jcmd GC.class_histogram`, which collects first) before and after "
                        + "the targets were applied and probed (prober) or consumed (aggregator; its state lives "
                        + "in RocksDB, off the heap).\n\n")
                .append("| targets | prober heap before / after | prober bytes per target | per 100k targets | "
                        + "aggregator heap before / after | aggregator bytes per target | per 100k targets |\n")
                .append("|---|---|---|---|---|---|---|\n")
                .append(String.format(Locale.ROOT, "| %d | %s / %s | %.0f | %s | %s / %s | %.0f | %s |%n",
                        f.targets(), mib(f.proberHeapBefore()), mib(f.proberHeapAfter()), f.proberBytesPerTarget(),
                        mib((long) (f.proberBytesPerTarget() * 100_000)), mib(f.aggregatorHeapBefore()),
                        mib(f.aggregatorHeapAfter()), f.aggregatorBytesPerTarget(),
                        mib((long) (f.aggregatorBytesPerTarget() * 100_000))))
                .append(f.aggregatorCaughtUp() ? "" : "\nThe aggregator had not consumed every definition when its "
                        + "heap was read.\n")
                .append("\nWhere the heap goes (`jcmd GC.class_histogram`, largest classes first):\n\nprober:\n```\n")
                .append(f.proberHistogram()).append("\n```\naggregator:\n```\n").append(f.aggregatorHistogram())
                .append("\n```\n")
                .append("\n| targets x interval | asked /s | done /s | prober CPU (cores) | lag p50 / p99 / max (ms) "
                        + "| failed probes |\n|---|---|---|---|---|---|\n")
                .append(String.format(Locale.ROOT, "| %d x %d ms | %.0f | %.0f | %.2f | %s | %s |%n", l.targets(),
                        l.intervalMs(), l.offeredPerSecond(), l.achievedPerSecond(), l.proberCores(), lag(l),
                        failures(l)));
        double perTarget = f.proberBytesPerTarget();
        verdicts.add(String.format(Locale.ROOT, "prober heap per target: %.0f bytes against <= 512 (%s)", perTarget,
                perTarget <= 512 ? "met" : "missed by " + fmt(perTarget - 512) + " bytes"));
        double failedShare = l.failures() / (l.achievedPerSecond() * l.windowSeconds());
        boolean held = l.lagP99Micros() < 50_000 && l.achievedPerSecond() >= 0.95 * l.offeredPerSecond()
                && failedShare <= 0.01;
        verdicts.add(String.format(Locale.ROOT, "%d targets at %d ms on one prober: lag p99 %.1f ms, %.0f of %.0f "
                        + "probes/s, %.1f%% failed against a farm that was up (%s: lag p99 < 50 ms, >= 95%% of the "
                        + "rate, <= 1%% failed; goal 100k targets)", l.targets(), l.intervalMs(),
                l.lagP99Micros() / 1000, l.achievedPerSecond(), l.offeredPerSecond(), 100 * failedShare,
                held ? "held" : "not held"));
    }

    public void aggregator(AggregatorThroughputPhase.Figure f, List<TargetSpec> specs) {
        long largestGroup = specs.stream().collect(java.util.stream.Collectors.groupingBy(TargetSpec::group,
                java.util.stream.Collectors.counting())).values().stream().mapToLong(Long::longValue).max().orElse(0);
        section(5).append("\n### 5. Aggregator throughput, one instance\n\n")
                .append(String.format(Locale.ROOT, "%d results for %d targets (groups of up to %d) pre-produced with "
                        + "the aggregator stopped, each target cycling 17 successes then 3 failures (one result in ten "
                        + "changes a state), then the aggregator started (exactly-once, RocksDB stores).%n%n", f.results(),
                        specs.size(), largestGroup))
                .append("| results | start-up to first commit | catch-up time | results/s | results/s over the second "
                        + "half (JIT warm) | aggregator CPU per result over the second half |\n"
                        + "|---|---|---|---|---|---|\n")
                .append(f.finished()
                        ? String.format(Locale.ROOT, "| %d | %.1f s | %.1f s | %.0f | %.0f | %.1f µs |%n",
                        f.results(), f.startupSeconds(), f.catchUpSeconds(), f.resultsPerSecond(), f.secondHalfPerSecond(),
                        f.secondHalfCpuMicrosPerResult())
                        : "| " + f.results() + " | - | did not catch up within 10 min | - | - | - |\n");
    }

    /** Section 7: bytes and CPU per published result for each producer tuning. */
    public void publishCost(List<PublishCostPhase.Figure> figures, int targets, String load) {
        StringBuilder t = section(7).append("\n### 7. Publishing cost per result\n\n")
                .append(String.format(Locale.ROOT, "The prober's `ResultPublisher` and an idempotent `acks=all` "
                        + "producer publish results of %d TCP targets (1%% refused), paced, to a KRaft broker in the "
                        + "driver's JVM (6 partitions). Bytes: produce requests on the network, and record batches as "
                        + "stored and fetched, per result (counts: not disturbed by load). CPU per result (ThreadMXBean, "
                        + "%s): prober = publisher + producer network threads; broker = the broker's threads; GC/JIT "
                        + "= the JVM outside Java threads.%n%n", targets, load))
                .append("| compression | linger ms | batch bytes | results/s | wire B/result | batch B/result | "
                        + "record-size-avg | batch-size-avg | compression-rate-avg | records-per-request-avg | prober "
                        + "µs/result | broker µs/result | GC/JIT µs/result | lost |\n")
                .append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (PublishCostPhase.Figure f : figures) {
            t.append(String.format(Locale.ROOT, "| %s | %d | %d | %.0f | %.1f | %.1f | %.1f | %.0f | %.3f | %.1f | "
                            + "%.2f | %.2f | %.2f | %d |%n", f.tuning().compression(), f.tuning().lingerMs(),
                    f.tuning().batchBytes(), f.resultsPerSecond(), f.wireBytesPerResult(), f.batchBytesPerResult(),
                    f.recordSizeAvg(), f.batchSizeAvg(), f.compressionRateAvg(), f.recordsPerRequestAvg(),
                    f.proberMicrosPerResult(), f.brokerMicrosPerResult(), f.jvmOtherMicrosPerResult(), f.lost()));
        }
    }

    /** Section 5b: aggregator throughput with several instances sharing the partitions. */
    public void aggregatorInstances(List<AggregatorThroughputPhase.Figure> figures, int targets,
                                    int threadsPerInstance) {
        StringBuilder t = section(5).append("\n#### Results per aggregator thread, one and more instances\n\n")
                .append(String.format(Locale.ROOT, "The same catch-up measurement, the results pre-produced for "
                        + "%d targets, with N aggregator instances (%d stream thread%s each, one application id, "
                        + "6 partitions) started together; timed from the group's first committed progress to no "
                        + "lag. On 2 cores two instances share the CPU with the broker.%n%n", targets,
                        threadsPerInstance, threadsPerInstance == 1 ? "" : "s"))
                .append("| instances | stream threads | results | catch-up time | results/s | results/s per thread |\n"
                        + "|---|---|---|---|---|---|\n");
        for (AggregatorThroughputPhase.Figure f : figures) {
            t.append(f.finished()
                    ? String.format(Locale.ROOT, "| %d | %d | %d | %.1f s | %.0f | %.0f |%n", f.instances(),
                    f.instances() * threadsPerInstance, f.results(), f.catchUpSeconds(), f.resultsPerSecond(),
                    f.resultsPerSecond() / (f.instances() * threadsPerInstance))
                    : String.format(Locale.ROOT, "| %d | %d | %d | did not catch up within 10 min | - | - |%n",
                    f.instances(), f.instances() * threadsPerInstance, f.results()));
        }
    }

    /** Section 8: the topics' sizes on the broker at the end of the run. */
    public void topicSizes(String table) {
        section(8).append("\n### 8. Topic sizes at the end of the run\n\n")
                .append("Bytes on the broker's disk and records of each topic (the compacted ones before the cleaner "
                        + "ran: an upper bound of what they keep per key; the aggregator's changelogs and repartition "
                        + "topic included).\n\n").append(table);
    }

    /** Records that the phase of section {@code section} failed, and why, in that section. */
    public void failed(int sectionNumber, String phase, Exception e) {
        section(sectionNumber).append("\n**").append(phase).append(" failed**: `").append(String.valueOf(e).replace('`', '\''))
                .append("`\n");
    }

    /** A note under the run's header. */
    public void note(String text) {
        section(0).append(text).append('\n');
    }

    /** A note after every figure. */
    public void closing(String text) {
        section(9).append('\n').append(text).append('\n');
    }

    private StringBuilder section(int n) {
        return sections.computeIfAbsent(n, k -> new StringBuilder());
    }

    public String markdown() {
        StringBuilder out = new StringBuilder(md);
        sections.forEach((n, text) -> {
            out.append(text);
            if (n == 1 && !warmups.isEmpty()) {
                out.append("\nWarm-up before each window (at full rate, until the prober's probes per CPU-second "
                        + "stopped rising and its JIT went quiet, sampled every second):\n\n");
                warmups.forEach(w -> out.append("- ").append(w).append('\n'));
            }
        });
        out.append("\n### Against the issue's targets\n\n");
        for (String v : verdicts) {
            out.append("- ").append(v).append('\n');
        }
        return out.toString();
    }

    private static String lag(ThroughputPhase.Figure f) {
        return ms(f.lagP50Micros()) + " / " + ms(f.lagP99Micros()) + " / " + ms(f.lagMaxMicros());
    }

    private static String latencyRow(String span, long[] micros) {
        return String.format(Locale.ROOT, "| %s | %d | %s ms | %s ms | %s ms |%n", span, micros.length,
                ms(LongSamples.percentile(micros, 50)), ms(LongSamples.percentile(micros, 99)),
                ms(LongSamples.percentile(micros, 100)));
    }

    private static String failures(ThroughputPhase.Figure f) {
        String kernel = f.kernel().listenOverflows() < 0 ? "" : String.format(Locale.ROOT,
                "; kernel: %d SYNs dropped by full accept queues, %d SYNs retransmitted", f.kernel().listenOverflows(),
                f.kernel().synRetransmits());
        // by outcome: the failures, and INCONCLUSIVE results (not failures: the prober's own trouble) when any
        return f.failures() + (f.failuresByOutcome().isEmpty() ? "" : " " + f.failuresByOutcome()) + kernel;
    }

    private static String triple(long[] sortedMs) {
        if (sortedMs.length == 0) {
            return "-";
        }
        return String.format(Locale.ROOT, "%.0f / %.0f / %.0f", LongSamples.percentile(sortedMs, 50),
                LongSamples.percentile(sortedMs, 99), LongSamples.percentile(sortedMs, 100));
    }

    private static String pair(long[] sortedMs) {
        if (sortedMs.length == 0) {
            return "-";
        }
        return String.format(Locale.ROOT, "%.0f / %.0f", LongSamples.percentile(sortedMs, 50),
                LongSamples.percentile(sortedMs, 99));
    }

    private static String ms(double micros) {
        return Double.isNaN(micros) ? "-" : String.format(Locale.ROOT, "%.1f", micros / 1000);
    }

    private static String mib(long bytes) {
        return String.format(Locale.ROOT, "%.1f MiB", bytes / 1024.0 / 1024.0);
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }

    private static String ratioText(double actual, double goal) {
        return actual >= goal ? "met" : String.format(Locale.ROOT, "missed by %.0f, %.0f%% of the goal",
                goal - actual, 100 * actual / goal);
    }
}
