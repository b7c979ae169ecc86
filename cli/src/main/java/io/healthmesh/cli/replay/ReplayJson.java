package io.healthmesh.cli.replay;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.healthmesh.cli.output.Progress;
import io.healthmesh.replay.IntervalEstimate;
import io.healthmesh.replay.ReplayReport;
import io.healthmesh.replay.ReplayResult;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The {@code --json} form of a replay: one document with every figure of the text form. */
final class ReplayJson {

    private ReplayJson() {
    }

    static String of(ReplayResult result, ReplayReport report, Progress progress, IntervalWhatIf whatIf,
                     List<IntervalEstimate.TargetEstimate> estimates, Duration flapSpan, Duration minOutage,
                     boolean check) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("from", result.window().fromBeginning() ? null : Instant.ofEpochMilli(result.window().fromMs()).toString());
        doc.put("to", Instant.ofEpochMilli(result.window().toMs()).toString());
        doc.put("alternatives", result.alternatives().describe());
        doc.put("flapSpanMs", flapSpan.toMillis());
        doc.put("minOutageMs", minOutage.toMillis());
        doc.put("recordsRead", progress.done());
        doc.put("recordsPerSecond", progress.rate());
        doc.put("resultsReplayed", result.results());
        doc.put("targets", report.targets());
        doc.put("groups", report.groups());
        doc.put("totals", report.totals());
        doc.put("notes", result.notes());
        if (whatIf != null) {
            doc.put("intervalEstimate", whatIf.json(estimates));
        }
        if (check) {
            Map<String, Object> self = new LinkedHashMap<>();
            self.put("matches", result.check().matches());
            self.put("targets", result.check().targets());
            self.put("statusChanges", result.check().changes());
            self.put("groups", result.check().groups());
            self.put("groupChanges", result.check().groupChanges());
            self.put("maintenanceEvents", result.check().maintenanceEvents());
            self.put("mismatches", result.check().mismatches());
            doc.put("selfCheck", self);
        }
        try {
            return new ObjectMapper().writeValueAsString(doc);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("could not write JSON: " + e.getMessage(), e);
        }
    }
}
