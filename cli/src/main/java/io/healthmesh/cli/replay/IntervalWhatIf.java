package io.healthmesh.cli.replay;

import io.healthmesh.aggregator.domain.ProbeObservation;
import io.healthmesh.aggregator.domain.TargetEssentials;
import io.healthmesh.cli.BadInputException;
import io.healthmesh.core.target.TargetProfile;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.core.target.TargetValidator;
import io.healthmesh.core.target.Violation;
import io.healthmesh.replay.Alternatives;
import io.healthmesh.replay.IntervalEstimate;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code replay --fast-interval / --down-interval / --profile}: the alternative definitions checked under the
 * profile's rules (refused as {@code targets apply} would refuse them), and, when an interval is given, the estimate
 * of {@link IntervalEstimate} per target next to the recorded run. The run as configured and its self-check do not
 * depend on any of this.
 */
final class IntervalWhatIf {

    private final Integer fastMs;
    private final Integer downMs;
    private final TargetProfile profile;
    private final Map<String, TargetSpec> specs = new TreeMap<>();
    private final Map<String, List<ProbeObservation>> results = new TreeMap<>();

    private IntervalWhatIf(Integer fastMs, Integer downMs, TargetProfile profile) {
        this.fastMs = fastMs;
        this.downMs = downMs;
        this.profile = profile;
    }

    /** The what-if of the options, or {@code null} when none is given (replay then behaves as without them). */
    static IntervalWhatIf of(Duration fast, Duration down, String profileName) {
        if (fast == null && down == null && profileName == null) {
            return null;
        }
        return new IntervalWhatIf(millis("--fast-interval", fast), millis("--down-interval", down),
                profileName == null ? null : profile(profileName));
    }

    /** {@code --profile}: a {@link TargetProfile} name, any case. */
    static TargetProfile profile(String name) {
        try {
            return TargetProfile.valueOf(name.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new BadInputException("--profile: " + name + " (expected: one of "
                    + String.join(", ", java.util.Arrays.stream(TargetProfile.values()).map(Enum::name).toList()) + ")");
        }
    }

    private static Integer millis(String name, Duration d) {
        if (d == null) {
            return null;
        }
        if (d.toMillis() < TargetValidator.MIN_INTERVAL_MS || d.toMillis() > TargetValidator.MAX_INTERVAL_MS) {
            throw new BadInputException(name + ": " + d.toMillis() + " ms (expected: " + TargetValidator.MIN_INTERVAL_MS
                    + ".." + TargetValidator.MAX_INTERVAL_MS + " ms)");
        }
        return (int) d.toMillis();
    }

    /**
     * Checks each selected target's latest definition with the alternatives in it (profile, intervals, thresholds)
     * with the validator {@code targets apply} uses; any violation refuses the whole replay with its messages.
     */
    void check(Map<String, TargetSpec> latest, Alternatives alternatives) {
        List<String> problems = new ArrayList<>();
        latest.forEach((id, spec) -> {
            TargetSpec alt = alternative(spec, alternatives);
            for (Violation v : TargetValidator.validate(alt)) {
                problems.add(id + " under " + alt.profile() + ": " + v);
            }
            specs.put(id, alt);
        });
        if (!problems.isEmpty()) {
            throw new BadInputException("the alternative definitions break the rules of their profile (" + describe()
                    + ")", problems);
        }
    }

    /** {@code spec} as the alternative defines it. */
    TargetSpec alternative(TargetSpec s, Alternatives a) {
        return new TargetSpec(s.id(), s.group(), s.address(), s.port(), s.protocol(), s.intervalMs(), s.timeoutMs(),
                a.healthy() == null ? s.healthyThreshold() : a.healthy(),
                a.unhealthy() == null ? s.unhealthyThreshold() : a.unhealthy(), s.enabled(), s.weight(), s.labels(),
                s.http(), s.udp(), s.tcp(), s.regions(), s.quorum(), s.quorumAtLeast(),
                profile == null ? s.profile() : profile, fastMs == null ? s.fastIntervalMs() : fastMs,
                downMs == null ? s.downIntervalMs() : downMs, s.grpc(), s.tls(), s.dns(), s.condition());
    }

    /** True when an interval is given: the results must then be kept for the estimate. */
    boolean estimates() {
        return fastMs != null || downMs != null;
    }

    void result(String targetId, ProbeObservation o) {
        if (estimates() && specs.containsKey(targetId)) {
            results.computeIfAbsent(targetId, k -> new ArrayList<>()).add(o);
        }
    }

    List<IntervalEstimate.TargetEstimate> estimate(long fromMs, long toMs) {
        List<IntervalEstimate.TargetEstimate> out = new ArrayList<>();
        if (!estimates()) {
            return out;
        }
        results.forEach((id, list) -> {
            TargetSpec s = specs.get(id);
            out.add(IntervalEstimate.of(TargetEssentials.of(s), new IntervalEstimate.Intervals(s.intervalMs(),
                    s.fastIntervalOrDefault(), s.downIntervalOrDefault()), list, fromMs, toMs));
        });
        return out;
    }

    /** The command-line form, e.g. {@code --fast-interval 1000ms --profile TENCENT_CLB}. */
    String describe() {
        List<String> parts = new ArrayList<>();
        if (fastMs != null) {
            parts.add("--fast-interval " + fastMs + "ms");
        }
        if (downMs != null) {
            parts.add("--down-interval " + downMs + "ms");
        }
        if (profile != null) {
            parts.add("--profile " + profile);
        }
        return String.join(" ", parts);
    }

    void print(PrintWriter out, List<IntervalEstimate.TargetEstimate> estimates) {
        out.println();
        if (profile != null) {
            out.println("profile " + profile + " (" + profile.product() + "): every selected definition, with the "
                    + "alternatives, is within its ranges (interval, timeout, thresholds) and probe rules; its "
                    + "schedule rules (first probe, fixed delay) are not replayed: the recorded results stand as probed");
        }
        if (!estimates()) {
            return;
        }
        out.println("ESTIMATE with " + describe() + " (BEHAVIOUR.md 5b: recorded outcomes held from each result to "
                + "the next, resampled at the intervals' schedule; not a measurement):");
        out.printf("%-24s %-17s %13s %13s %23s %23s%n", "TARGET", "STEADY/FAST/DOWN", "PROBES/H", "ALT",
                "DETECTION (rec -> est)", "RECOVERY (rec -> est)");
        for (IntervalEstimate.TargetEstimate e : estimates) {
            IntervalEstimate.Intervals i = e.intervals();
            out.printf("%-24s %-17s %13.0f %13.0f %23s %23s%n", e.targetId(),
                    ReplayText.human(i.steadyMs()) + "/" + ReplayText.human(i.fastMs()) + "/"
                            + ReplayText.human(i.downMs()),
                    e.recorded().probesPerHour(), e.estimated().probesPerHour(),
                    mean(e.recorded().detectionMs()) + " -> " + mean(e.estimated().detectionMs()),
                    mean(e.recorded().recoveryMs()) + " -> " + mean(e.estimated().recoveryMs()));
        }
    }

    Map<String, Object> json(List<IntervalEstimate.TargetEstimate> estimates) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("alternatives", describe());
        doc.put("profile", profile == null ? null : profile.name());
        doc.put("method", "estimate: recorded outcomes held from each result to the next, resampled at the "
                + "alternative intervals' schedule (BEHAVIOUR.md 5b)");
        doc.put("targets", estimates);
        return doc;
    }

    private static String mean(List<Long> delays) {
        if (delays.isEmpty()) {
            return "-";
        }
        return ReplayText.human(Math.round(delays.stream().mapToLong(Long::longValue).average().orElse(0)));
    }
}
