package io.healthmesh.core.condition;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelIssue;
import dev.cel.common.CelOptions;
import dev.cel.common.CelValidationException;
import dev.cel.common.CelValidationResult;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.parser.CelStandardMacro;

import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * A definition's {@code condition}: a CEL expression (the language Kubernetes and Envoy use) that must be true for a
 * check that otherwise succeeded to count as a success. This class holds the one set of variables, the limits and the
 * compiler: the validator compiles with it, the prober evaluates what it compiled with the same {@link #options()}.
 *
 * <p>Variables (a fact the check did not produce is absent or empty, see docs/PROBES.md "Conditions"):
 * {@code status} (int, the HTTP status, 0 without one), {@code latencyMs} (int), {@code headers}
 * (map of lower-case name to value), {@code body} (string, the first {@link #MAX_BODY_BYTES} bytes as UTF-8),
 * {@code json} (the body parsed as JSON, {@code null} when it does not parse or was cut at the bound),
 * {@code dns} (map: {@code rcode} string, {@code answers} list of strings), {@code tls} (map: {@code daysLeft} int),
 * {@code grpc} (map: {@code status} string). Thread-safe: the compiler is immutable.
 */
public final class ConditionLanguage {

    /** The longest expression, in characters. */
    public static final int MAX_LENGTH = 2_048;
    /** How much of an HTTP body {@code body} and {@code json} see. */
    public static final int MAX_BODY_BYTES = 16 * 1_024;
    /** Iterations of one comprehension ({@code exists}, {@code all}, {@code map}, {@code filter}). */
    public static final int MAX_COMPREHENSION_ITERATIONS = 1_000;
    /** Sub-expressions one evaluation may evaluate: the cost limit. */
    public static final int MAX_EVALUATION_STEPS = 10_000;
    /** How deeply an expression may nest. */
    public static final int MAX_NESTING = 32;
    /** Errors reported for one expression; the rest are counted. */
    static final int MAX_ERRORS_SHOWN = 5;

    public static final String STATUS = "status";
    public static final String LATENCY_MS = "latencyMs";
    public static final String HEADERS = "headers";
    public static final String BODY = "body";
    public static final String JSON = "json";
    public static final String DNS = "dns";
    public static final String TLS = "tls";
    public static final String GRPC = "grpc";

    private static final CelOptions OPTIONS = CelOptions.current()
            .maxExpressionCodePointSize(MAX_LENGTH)
            .maxParseRecursionDepth(MAX_NESTING)
            .comprehensionMaxIterations(MAX_COMPREHENSION_ITERATIONS)
            .enableHeterogeneousNumericComparisons(true)
            .build();

    private static final CelCompiler COMPILER = CelCompilerFactory.standardCelCompilerBuilder()
            .setOptions(OPTIONS)
            .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
            .addVar(STATUS, SimpleType.INT)
            .addVar(LATENCY_MS, SimpleType.INT)
            .addVar(HEADERS, MapType.create(SimpleType.STRING, SimpleType.STRING))
            .addVar(BODY, SimpleType.STRING)
            .addVar(JSON, SimpleType.DYN)
            .addVar(DNS, MapType.create(SimpleType.STRING, SimpleType.DYN))
            .addVar(TLS, MapType.create(SimpleType.STRING, SimpleType.DYN))
            .addVar(GRPC, MapType.create(SimpleType.STRING, SimpleType.DYN))
            .setResultType(SimpleType.BOOL)
            .build();

    private ConditionLanguage() {
    }

    /** The options the evaluator must run a compiled expression with (the comprehension bound among them). */
    public static CelOptions options() {
        return OPTIONS;
    }

    /**
     * Parses and type-checks {@code expression}: a checked tree, or the errors with their positions
     * ({@code line:column: message}, both from 1). Never throws for a bad expression.
     */
    public static Compiled compile(String expression) {
        requireNonNull(expression, "expression");
        if (expression.length() > MAX_LENGTH) {
            return new Compiled(null, List.of(expression.length() + " characters, at most " + MAX_LENGTH));
        }
        CelValidationResult result;
        try {
            result = COMPILER.compile(expression);
        } catch (RuntimeException e) {
            // the parser's own bound (nesting) surfaces as an exception on some inputs: an error, not a crash
            return new Compiled(null, List.of("not a valid expression (" + e.getClass().getSimpleName() + ")"));
        }
        if (result.hasError()) {
            return new Compiled(null, errors(result.getErrors()));
        }
        try {
            return new Compiled(result.getAst(), List.of());
        } catch (CelValidationException e) {
            return new Compiled(null, errors(e.getErrors()));
        }
    }

    private static List<String> errors(List<CelIssue> issues) {
        List<String> out = new ArrayList<>();
        for (CelIssue issue : issues) {
            if (out.size() == MAX_ERRORS_SHOWN) {
                out.add("and " + (issues.size() - MAX_ERRORS_SHOWN) + " more");
                break;
            }
            var at = issue.getSourceLocation();
            out.add(at.getLine() + ":" + (at.getColumn() + 1) + ": " + issue.getMessage());
        }
        return List.copyOf(out);
    }

    /**
     * One compiled expression.
     *
     * @param ast    the checked tree, {@code null} when {@code errors} is not empty
     * @param errors what is wrong, each with its position; empty when the expression compiled
     */
    public record Compiled(CelAbstractSyntaxTree ast, List<String> errors) {

        public Compiled {
            errors = List.copyOf(errors);
        }

        /** True when the expression parsed and type-checked as a boolean. */
        public boolean ok() {
            return errors.isEmpty();
        }
    }
}
