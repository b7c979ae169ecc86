package io.healthmesh.probe.condition;

import dev.cel.common.CelErrorCode;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.values.NullValue;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelEvaluationListener;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelRuntimeFactory;
import io.healthmesh.core.condition.ConditionLanguage;

import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * Evaluates conditions: each expression compiled once and kept (at most {@link #MAX_PROGRAMS}, the least recently
 * used dropped first), each evaluation bounded by {@link ConditionLanguage#MAX_EVALUATION_STEPS} sub-expressions and
 * the language's comprehension bound. A detail never carries a value the server sent: only fixed texts and CEL's
 * error code. Thread-safe: probes on every event loop share {@link #SHARED}.
 */
public final class ConditionEvaluator {

    /** The detail of a check whose condition was false. */
    public static final String FALSE_DETAIL = "condition false";
    /** The detail of a check whose condition ran out of its budget. */
    public static final String OVER_COST_DETAIL = "condition over its cost limit ("
            + ConditionLanguage.MAX_EVALUATION_STEPS + " steps, " + ConditionLanguage.MAX_COMPREHENSION_ITERATIONS
            + " iterations per comprehension)";
    /** Expressions kept compiled: far more than a prober's distinct conditions, bounded all the same. */
    static final int MAX_PROGRAMS = 4_096;

    /** The evaluator the prober's checks use. */
    public static final ConditionEvaluator SHARED = new ConditionEvaluator();

    private static final CelRuntime RUNTIME = CelRuntimeFactory.standardCelRuntimeBuilder()
            .setOptions(ConditionLanguage.options())
            .build();

    private final Map<String, Compiled> programs = Collections.synchronizedMap(
            new LinkedHashMap<>(64, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, Compiled> eldest) {
                    return size() > MAX_PROGRAMS;
                }
            });

    /**
     * Evaluates {@code expression} over {@code input}.
     *
     * @return {@code null} when the condition holds, else the failed check's detail
     */
    public String failure(String expression, ConditionInput input) {
        requireNonNull(input, "input");
        Compiled compiled = program(requireNonNull(expression, "expression"));
        if (compiled.program == null) {
            // the validator refuses such a definition; one that reaches a prober anyway fails rather than passes
            return "condition does not compile";
        }
        StepBudget budget = new StepBudget(ConditionLanguage.MAX_EVALUATION_STEPS);
        Object result;
        try {
            result = compiled.program.trace(variables(input, compiled.readsJson), budget);
        } catch (CelEvaluationException e) {
            if (budget.exceeded || e.getErrorCode() == CelErrorCode.ITERATION_BUDGET_EXCEEDED) {
                return OVER_COST_DETAIL;
            }
            return "condition error: " + e.getErrorCode();
        }
        if (result instanceof Boolean holds) {
            return holds ? null : FALSE_DETAIL;
        }
        return "condition error: not a boolean";
    }

    /** Expressions compiled and kept, for tests. */
    int cached() {
        return programs.size();
    }

    private Compiled program(String expression) {
        Compiled known = programs.get(expression);
        if (known != null) {
            return known;
        }
        Compiled made = compile(expression);
        programs.put(expression, made);
        return made;
    }

    private static Compiled compile(String expression) {
        ConditionLanguage.Compiled checked = ConditionLanguage.compile(expression);
        if (!checked.ok()) {
            return new Compiled(null, false);
        }
        try {
            return new Compiled(RUNTIME.createProgram(checked.ast()), expression.contains(ConditionLanguage.JSON));
        } catch (CelEvaluationException e) {
            return new Compiled(null, false);
        }
    }

    static Map<String, Object> variables(ConditionInput in, boolean parseJson) {
        Map<String, Object> v = new HashMap<>(16);
        v.put(ConditionLanguage.STATUS, (long) in.httpStatus());
        v.put(ConditionLanguage.LATENCY_MS, in.latencyMs());
        v.put(ConditionLanguage.HEADERS, in.headers());
        v.put(ConditionLanguage.BODY, in.body());
        v.put(ConditionLanguage.JSON, parseJson ? JsonValues.parse(in.body(), in.bodyComplete())
                : NullValue.NULL_VALUE);
        v.put(ConditionLanguage.DNS, in.dnsRcode() == null ? Map.of()
                : Map.of("rcode", in.dnsRcode(), "answers", in.dnsAnswers() == null ? List.of()
                : in.dnsAnswers()));
        v.put(ConditionLanguage.TLS, in.tlsDaysLeft() == null ? Map.of() : Map.of("daysLeft", in.tlsDaysLeft()));
        v.put(ConditionLanguage.GRPC, in.grpcStatus() == null ? Map.of() : Map.of("status", in.grpcStatus()));
        return v;
    }

    /** A compiled expression and whether it reads {@code json} (the body is parsed only then). */
    private record Compiled(CelRuntime.Program program, boolean readsJson) {
    }

    /** Counts the sub-expressions an evaluation visits and stops it past its budget. */
    private static final class StepBudget implements CelEvaluationListener {
        private final int limit;
        private int steps;
        private boolean exceeded;

        StepBudget(int limit) {
            this.limit = limit;
        }

        @Override
        public void callback(CelExpr expr, Object evaluatedResult) {
            if (++steps > limit) {
                exceeded = true;
                throw new IllegalStateException("condition over its step budget");
            }
        }
    }
}
