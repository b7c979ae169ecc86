package io.healthmesh.bench.soak;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class SoakSvgTest {

    @Test
    void drawsOnePanelPerSeriesWithEachRoleBrokenAtItsRestartsAndTheRestartsMarked() throws Exception {
        Series series = new Series();
        series.add(0, 100, 10, 11, 21, t -> 50 + t / 10, 5);
        series.add(100, 200, 10, 12, 21, t -> 50 + t / 10, 5); // the prober restarted at 100 s
        List<SoakSample> samples = new ArrayList<>(series.samples());
        samples.set(10, new SoakSample(100, samples.get(10).prober(), samples.get(10).aggregator(), 5, 5, 0, 0, 0, 0,
                0.5, "prober:KILL"));

        Document svg = parse(SoakSvg.render(samples, "soak <test> & more"));

        assertThat(svg.getDocumentElement().getTagName()).isEqualTo("svg");
        NodeList lines = svg.getElementsByTagName("polyline");
        // five per-process panels: the prober in two pieces, the aggregator in one; the lag panel: one each
        assertThat(lines.getLength()).isEqualTo(5 * 3 + 2);
        Element firstProberPiece = (Element) lines.item(0);
        assertThat(firstProberPiece.getAttribute("points").split(" ")).hasSize(10);
        NodeList markers = svg.getElementsByTagName("line");
        assertThat(markers.getLength()).isEqualTo(6);
        assertThat(((Element) markers.item(0)).getAttribute("stroke")).isEqualTo("#c00");
        assertThat(svg.getElementsByTagName("text").item(0).getTextContent()).isEqualTo("soak <test> & more");
    }

    @Test
    void valuesThatCouldNotBeReadBreakTheLineInsteadOfDroppingToZero() throws Exception {
        List<SoakSample> samples = new ArrayList<>(new Series().add(0, 60, 10, 11, 21, t -> 40, 5).samples());
        samples.set(3, new SoakSample(30, RoleFacts.unknown(11), samples.get(3).aggregator(), -1, 5, 0, 0, 0, 0, 0.5,
                ""));

        Document svg = parse(SoakSvg.render(samples, "gaps"));

        NodeList lines = svg.getElementsByTagName("polyline");
        // the prober in two pieces on every panel, lag included; the aggregator whole
        assertThat(lines.getLength()).isEqualTo(6 * 3);
        for (int i = 0; i < lines.getLength(); i++) {
            for (String point : ((Element) lines.item(i)).getAttribute("points").split(" ")) {
                double y = Double.parseDouble(point.split(",")[1]);
                assertThat(y).as("no point below a panel's baseline").isLessThan(6 * 190 + 80);
            }
        }
    }

    @Test
    void anEmptyRunStillDrawsItsFrame() throws Exception {
        Document svg = parse(SoakSvg.render(List.of(), "nothing"));

        assertThat(svg.getElementsByTagName("polyline").getLength()).isZero();
        assertThat(svg.getElementsByTagName("rect").getLength()).isEqualTo(7);
    }

    private static Document parse(String svg) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    }
}
