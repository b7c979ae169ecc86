package io.healthmesh.core.target;

import io.healthmesh.core.condition.ConditionLanguage;

import java.util.List;

/**
 * The rules of a definition's {@code condition}: GENERIC only, at most {@link ConditionLanguage#MAX_LENGTH}
 * characters, and a CEL expression that parses and type-checks as a boolean over the documented variables. Each
 * compile error is one violation with its position. Called by {@link TargetValidator}.
 */
final class ConditionRules {

    private ConditionRules() {
    }

    static void check(List<Violation> out, TargetSpec spec) {
        String condition = spec.condition();
        if (condition == null) {
            return;
        }
        if (spec.profile() != TargetProfile.GENERIC) {
            out.add(Violation.of("condition", Texts.show(condition), "absent under " + spec.profile()
                    + ": conditions are GENERIC only"));
            return;
        }
        if (condition.length() > ConditionLanguage.MAX_LENGTH) {
            out.add(Violation.of("condition", condition.length() + " characters",
                    "at most " + ConditionLanguage.MAX_LENGTH));
            return;
        }
        if (condition.isBlank()) {
            out.add(Violation.of("condition", Texts.show(condition), "a CEL expression, or no condition"));
            return;
        }
        for (String error : ConditionLanguage.compile(condition).errors()) {
            out.add(new Violation("condition", error));
        }
    }
}
