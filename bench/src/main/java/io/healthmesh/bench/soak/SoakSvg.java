package io.healthmesh.bench.soak;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * Draws the soak's series as one SVG, written by hand (no plotting library): a panel per series (heap after GC, RSS,
 * threads, descriptors, consumer lag) with the prober and the aggregator as two lines, broken at every restart, and
 * the restarts as vertical lines (SIGKILL red, SIGTERM grey). Descriptors get two panels: those held since the
 * previous sample (judged for growth) and every open one (with the probes in flight).
 */
public final class SoakSvg {

    static final int WIDTH = 900;
    static final int PANEL_HEIGHT = 150;
    private static final int LEFT = 70;
    private static final int RIGHT = 20;
    private static final int TOP = 50;
    private static final int GAP = 40;
    private static final String PROBER_COLOR = "#1f77b4";
    private static final String AGGREGATOR_COLOR = "#e6550d";

    private record Panel(String title, ToDoubleFunction<SoakSample> prober, ToDoubleFunction<SoakSample> aggregator,
                         boolean breakAtRestart) {
    }

    private SoakSvg() {
    }

    /** Writes the plot of {@code samples} to {@code file}, with {@code title} (e.g. the verdict) on top. */
    public static void write(Path file, List<SoakSample> samples, String title) throws IOException {
        Files.writeString(file, render(samples, title));
    }

    /** The SVG document. */
    static String render(List<SoakSample> samples, String title) {
        List<Panel> panels = new ArrayList<>();
        for (RoleMetric m : RoleMetric.values()) {
            String unit = m.unit().isEmpty() ? "" : " (" + m.unit() + ")";
            panels.add(new Panel(m.title() + unit, s -> s.prober().value(m), s -> s.aggregator().value(m), true));
        }
        panels.add(new Panel("consumer group lag (records)", s -> s.proberLag(), s -> s.aggregatorLag(), false));
        int height = TOP + panels.size() * (PANEL_HEIGHT + GAP) + 10;
        double end = samples.isEmpty() ? 1 : Math.max(1, samples.get(samples.size() - 1).seconds());
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\">%n", WIDTH, height, WIDTH, height));
        svg.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", WIDTH, height));
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"18\" font-size=\"13\" font-weight=\"bold\">%s</text>%n",
                LEFT, escape(title)));
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"36\"><tspan fill=\"%s\">&#9632; prober</tspan> "
                + "<tspan fill=\"%s\">&#9632; aggregator</tspan> <tspan fill=\"#c00\">| SIGKILL</tspan> "
                + "<tspan fill=\"#888\">| SIGTERM</tspan></text>%n", LEFT, PROBER_COLOR, AGGREGATOR_COLOR));
        for (int i = 0; i < panels.size(); i++) {
            panel(svg, panels.get(i), samples, end, TOP + i * (PANEL_HEIGHT + GAP) + 20);
        }
        svg.append("</svg>\n");
        return svg.toString();
    }

    private static void panel(StringBuilder svg, Panel panel, List<SoakSample> samples, double end, int top) {
        int plotWidth = WIDTH - LEFT - RIGHT;
        double max = 0;
        for (SoakSample s : samples) {
            max = Math.max(max, Math.max(panel.prober().applyAsDouble(s), panel.aggregator().applyAsDouble(s)));
        }
        double yMax = max <= 0 ? 1 : max * 1.1;
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">%s</text>%n", LEFT, top - 6,
                escape(panel.title())));
        svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
                + "stroke=\"#999\"/>%n", LEFT, top, plotWidth, PANEL_HEIGHT));
        for (int t = 0; t <= 2; t++) {
            double value = yMax * t / 2;
            double y = top + PANEL_HEIGHT - PANEL_HEIGHT * t / 2.0;
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n",
                    LEFT - 4, y + 4, number(value)));
        }
        int minutes = (int) Math.ceil(end / 60);
        int step = Math.max(1, minutes / 10);
        for (int m = 0; m <= minutes; m += step) {
            double x = LEFT + plotWidth * Math.min(1, m * 60 / end);
            svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d min</text>%n",
                    x, top + PANEL_HEIGHT + 13, m));
        }
        for (SoakSample s : samples) {
            if (!s.restart().isEmpty()) {
                double x = LEFT + plotWidth * s.seconds() / end;
                String color = s.restart().contains("KILL") ? "#c00" : "#888";
                svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" "
                        + "stroke-dasharray=\"3,3\"><title>%s</title></line>%n", x, top, x, top + PANEL_HEIGHT, color,
                        escape(s.restart())));
            }
        }
        line(svg, samples, panel.prober(), panel.breakAtRestart() ? SoakRole.PROBER : null, PROBER_COLOR, end, yMax,
                top);
        line(svg, samples, panel.aggregator(), panel.breakAtRestart() ? SoakRole.AGGREGATOR : null, AGGREGATOR_COLOR,
                end, yMax, top);
    }

    /** One polyline per run of readable values, broken where {@code role}'s pid changes (when a role is given). */
    private static void line(StringBuilder svg, List<SoakSample> samples, ToDoubleFunction<SoakSample> value,
                             SoakRole role, String color, double end, double yMax, int top) {
        int plotWidth = WIDTH - LEFT - RIGHT;
        StringBuilder points = new StringBuilder();
        long pid = Long.MIN_VALUE;
        for (SoakSample s : samples) {
            double v = value.applyAsDouble(s);
            boolean restarted = role != null && s.facts(role).pid() != pid;
            if (role != null) {
                pid = s.facts(role).pid();
            }
            if (v < 0 || restarted) {
                flush(svg, points, color);
            }
            if (v >= 0) {
                double x = LEFT + plotWidth * s.seconds() / end;
                double y = top + PANEL_HEIGHT - PANEL_HEIGHT * v / yMax;
                points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
            }
        }
        flush(svg, points, color);
    }

    private static void flush(StringBuilder svg, StringBuilder points, String color) {
        if (!points.isEmpty()) {
            svg.append(String.format(Locale.ROOT, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" "
                    + "points=\"%s\"/>%n", color, points.toString().trim()));
            points.setLength(0);
        }
    }

    private static String number(double value) {
        return value >= 100 || value == 0 ? String.format(Locale.ROOT, "%,.0f", value)
                : String.format(Locale.ROOT, "%.1f", value);
    }

    static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
