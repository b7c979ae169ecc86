package io.healthmesh.cli.probe;

import io.healthmesh.cli.BadInputException;
import io.healthmesh.cli.Healthmesh;
import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.probe.NettyProbeEngine;
import io.healthmesh.probe.ProbeEngineConfig;
import io.healthmesh.probe.ProbeReport;
import io.healthmesh.probe.ProbeSource;
import io.healthmesh.probe.tls.TlsMaterial;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code healthmesh probe}: runs one definition's check once, here and now, with no cluster: the definition read and
 * validated as {@code targets apply} does ({@link ProbeDefinition}), the check run by the prober's own engine under
 * the prober's egress policy, every step printed with its time, then the verdict the prober would publish. Exit code 0
 * when the check succeeds, 1 when it does not (any other outcome, INCONCLUSIVE included), 2 for bad input.
 */
@Command(name = "probe", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run one target's check once, without a cluster, and print every step with its timing and the"
                + " verdict the prober would publish.",
                "The target comes from a definitions file (-f FILE [--id ID]) or from flags (--protocol, --address,"
                        + " --port, ... and --set FIELD=VALUE for any field of the file format)."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the check succeeded", "1:the check did not succeed", "2:bad usage or bad input"})
public final class ProbeCommand implements Callable<Integer> {

    /** The most characters of each fact (a response excerpt) printed. */
    static final int MAX_EXCERPT = 4096;
    /** One {@code --trust-bundle}: the id syntax of the prober's {@code tls.trust.bundles}. */
    private static final Pattern TRUST_ENTRY = Pattern.compile("([A-Za-z0-9._-]{1,64})=(\\S.*)");

    @Spec
    CommandSpec spec;

    @Option(names = {"-f", "--file"}, paramLabel = "FILE",
            description = "A YAML or JSON file of targets, as for 'targets apply' (repeatable; '-' reads standard input).")
    List<Path> files;

    @Option(names = "--id", paramLabel = "ID",
            description = "The target to probe (needed when the files hold several); with flags, the target's id.")
    String id;

    @Option(names = "--protocol", paramLabel = "PROTOCOL", description = "TCP, UDP, HTTP, HTTPS, ICMP, ... (flags).")
    String protocol;

    @Option(names = "--address", paramLabel = "HOST", description = "Host name or IP address (flags).")
    String address;

    @Option(names = "--port", paramLabel = "PORT", description = "Port (flags).")
    Integer port;

    @Option(names = "--path", paramLabel = "PATH", description = "HTTP(S) request path (flags).")
    String path;

    @Option(names = "--method", paramLabel = "METHOD", description = "HTTP(S) method, HEAD or GET (flags).")
    String method;

    @Option(names = "--timeout-ms", paramLabel = "MS", description = "The check's timeout (flags).")
    Integer timeoutMs;

    @Option(names = "--set", paramLabel = "FIELD=VALUE",
            description = "Any field of the file format, section.field for a protocol's section, e.g."
                    + " tls.insecureSkipVerify=true, http.expectedStatuses=[200], tcp.send=PING (flags; repeatable).")
    List<String> sets = new ArrayList<>();

    @Option(names = "--trust-bundle", paramLabel = "ID=PATH",
            description = "A PEM file of CA certificates that a definition's tls.trustId names, like the prober's"
                    + " tls.trust.bundles (repeatable).")
    List<String> trustBundles = new ArrayList<>();

    @Option(names = "--allow", paramLabel = "CIDR",
            description = "Opens a block the prober's deny list refuses, like its allow.list, e.g. 127.0.0.0/8 to"
                    + " reach loopback (repeatable).")
    List<String> allow = new ArrayList<>();

    @Option(names = "--deny", paramLabel = "CIDR",
            description = "Refuses one more block, like the prober's deny.list (repeatable).")
    List<String> deny = new ArrayList<>();

    @Option(names = "--excerpt", paramLabel = "CHARS", defaultValue = "512",
            description = "Characters of what the target sent to print, 0-" + MAX_EXCERPT + " (default: ${DEFAULT-VALUE}).")
    int excerpt;

    @Override
    public Integer call() {
        if (excerpt < 0 || excerpt > MAX_EXCERPT) {
            throw new BadInputException("--excerpt " + excerpt + ": expected 0-" + MAX_EXCERPT);
        }
        TargetSpec target = definition();
        ProbeEngineConfig config = engineConfig();
        PrintWriter out = spec.commandLine().getOut();
        TraceText.target(out, target, egress());
        out.flush();
        TraceLog trace = new TraceLog(excerpt);
        ProbeReport report;
        try (NettyProbeEngine engine = NettyProbeEngine.create(config, null, ProbeSource.NONE, tlsMaterial())) {
            report = await(engine, target, trace);
        }
        TraceText.trace(out, trace, report);
        out.flush();
        return report.outcome() == Outcome.SUCCESS ? Healthmesh.OK : Healthmesh.FAILURE;
    }

    private TargetSpec definition() {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("protocol", protocol);
        fields.put("address", address);
        fields.put("port", port);
        fields.put("timeoutMs", timeoutMs);
        fields.put("http.path", path);
        fields.put("http.method", method == null ? null : method.toUpperCase(Locale.ROOT));
        boolean anyFlag = fields.values().stream().anyMatch(v -> v != null) || !sets.isEmpty();
        if (files != null && !files.isEmpty()) {
            if (anyFlag) {
                throw new BadInputException("-f takes the target from the files: drop --protocol, --address, --port,"
                        + " --path, --method, --timeout-ms and --set, or drop -f");
            }
            return ProbeDefinition.fromFiles(files, id, System.in);
        }
        if (!anyFlag) {
            throw new BadInputException("no target: give -f FILE [--id ID], or --protocol, --address and --port");
        }
        fields.put("id", id);
        return ProbeDefinition.fromFlags(fields, sets);
    }

    /** The trust bundles of {@code --trust-bundle}, read and checked as the prober reads its own. */
    private TlsMaterial tlsMaterial() {
        Map<String, Path> bundles = new LinkedHashMap<>();
        for (String entry : trustBundles) {
            Matcher m = TRUST_ENTRY.matcher(entry.trim());
            if (!m.matches()) {
                throw new BadInputException("--trust-bundle " + entry + ": expected ID=PATH, the id 1-64 of"
                        + " [A-Za-z0-9._-]");
            }
            if (bundles.put(m.group(1), Path.of(m.group(2).trim())) != null) {
                throw new BadInputException("--trust-bundle: id " + m.group(1) + " twice (expected: each id once)");
            }
        }
        try {
            return TlsMaterial.load(bundles, Map.of(), Map.of());
        } catch (IllegalArgumentException e) {
            throw new BadInputException("--trust-bundle: " + e.getMessage());
        }
    }

    /** The prober's engine settings: its default deny list with {@code --deny} added, and {@code --allow}. */
    private ProbeEngineConfig engineConfig() {
        List<String> denied = new ArrayList<>(ProbeEngineConfig.DEFAULT_DENY_LIST);
        denied.addAll(deny);
        try {
            return ProbeEngineConfig.defaults().withDenyList(denied).withAllowList(allow).withEventLoopThreads(1);
        } catch (IllegalArgumentException e) {
            throw new BadInputException("--allow/--deny: " + e.getMessage());
        }
    }

    private String egress() {
        return "the prober's default deny list" + (deny.isEmpty() ? "" : " plus " + deny)
                + (allow.isEmpty() ? "" : ", allowed " + allow);
    }

    private static ProbeReport await(NettyProbeEngine engine, TargetSpec target, TraceLog trace) {
        try {
            // the engine ends every probe by its timeout; the margin covers a machine too busy to run the deadline
            return engine.probe(target, trace).get(target.timeoutMs() + 10_000L, TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("the probe engine gave no report: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while probing", e);
        }
    }
}
