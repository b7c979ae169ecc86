package io.healthmesh.core.target;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The size rules of SPEC section 9 that {@link TargetValidator#validate} applies on top of the range rules: text
 * that is valid Unicode, region names and count, labels, header names and values, expected statuses. Kept apart
 * from the range rules so that each stays short; messages read {@code field: value (expected: ...)} like every
 * other rule.
 */
final class DefinitionBounds {

    private DefinitionBounds() {
    }

    static void check(List<Violation> out, TargetSpec spec) {
        unicode(out, "id", spec.id());
        unicode(out, "group", spec.group());
        checkRegions(out, spec.regions());
        checkLabels(out, spec.labels());
        if (spec.protocol() == Protocol.HTTP || spec.protocol() == Protocol.HTTPS) {
            checkHttp(out, spec.http());
        }
    }

    /** The encoded size of a definition, where the caller holds its bytes; empty when within the bound. */
    static List<Violation> encodedSize(int bytes) {
        if (bytes > Limits.MAX_DEFINITION_BYTES) {
            return List.of(Violation.of("definition", bytes + " bytes encoded",
                    "at most " + Limits.MAX_DEFINITION_BYTES));
        }
        return List.of();
    }

    private static void checkRegions(List<Violation> out, List<String> regions) {
        if (regions.size() > Limits.MAX_REGIONS) {
            out.add(Violation.of("regions", regions.size() + " regions", "at most " + Limits.MAX_REGIONS));
        }
        for (String region : regions) {
            // empty and duplicate names have their own rule in TargetValidator
            if (!region.isEmpty() && !Limits.REGION.matcher(region).matches()) {
                out.add(Violation.of("regions", Texts.show(region), Limits.REGION_RULE));
            }
        }
    }

    private static void checkLabels(List<Violation> out, Map<String, String> labels) {
        if (labels.size() > Limits.MAX_LABELS) {
            out.add(Violation.of("labels", labels.size() + " labels", "at most " + Limits.MAX_LABELS));
        }
        new TreeMap<>(labels).forEach((key, value) -> {
            if (key.isEmpty() || key.length() > Limits.MAX_LABEL_KEY_LENGTH || !Texts.printable(key)) {
                out.add(Violation.of("labels", "key " + Texts.show(key),
                        "1.." + Limits.MAX_LABEL_KEY_LENGTH + " characters, no control characters"));
                return;
            }
            String field = "labels[" + Texts.shortened(key) + "]";
            if (value.length() > Limits.MAX_LABEL_VALUE_LENGTH) {
                out.add(Violation.of(field, value.length() + " characters", "at most " + Limits.MAX_LABEL_VALUE_LENGTH));
            } else if (!Texts.printable(value)) {
                out.add(Violation.of(field, Texts.show(value), "no control characters"));
            }
        });
    }

    private static void checkHttp(List<Violation> out, HttpSpec http) {
        if (http.expectedStatuses().size() > Limits.MAX_EXPECTED_STATUSES) {
            out.add(Violation.of("http.expectedStatuses", http.expectedStatuses().size() + " entries",
                    "at most " + Limits.MAX_EXPECTED_STATUSES));
        }
        new TreeMap<>(http.headers()).forEach((name, value) -> {
            if (name.length() > Limits.MAX_HEADER_NAME_LENGTH) {
                out.add(Violation.of("http.headers", "name of " + name.length() + " characters",
                        "at most " + Limits.MAX_HEADER_NAME_LENGTH));
            } else if (value.length() > Limits.MAX_HEADER_VALUE_LENGTH) {
                out.add(Violation.of("http.headers[" + Texts.shortened(name) + "]", value.length() + " characters",
                        "at most " + Limits.MAX_HEADER_VALUE_LENGTH));
            }
        });
    }

    private static void unicode(List<Violation> out, String field, String value) {
        if (value != null && !Texts.wellFormed(value)) {
            out.add(Violation.of(field, value.length() + " characters with an unpaired surrogate",
                    "valid Unicode text"));
        }
    }
}
