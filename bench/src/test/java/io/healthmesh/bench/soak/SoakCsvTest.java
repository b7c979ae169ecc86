package io.healthmesh.bench.soak;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SoakCsvTest {

    @TempDir
    Path dir;

    private static final SoakSample FIRST = new SoakSample(0.0, new RoleFacts(101, 41.5, 402.25, 61, 120, 131),
            new RoleFacts(202, 88.0, 610.0, 90, 310, 312), 0, 12, 50, 0, 0, 0, 1.75, "");
    private static final SoakSample RESTARTED = new SoakSample(30.5, RoleFacts.unknown(103),
            new RoleFacts(202, 87.5, 611.5, 91, 305, 305), -1, 7, 64, 1, 2, 3, 2.5, "prober:KILL aggregator:TERM");

    @Test
    void writesOneRowPerSampleUnderTheHeaderAndReadsThemBack() throws IOException {
        Path file = dir.resolve("soak.csv");

        SoakCsv.write(file, List.of(FIRST, RESTARTED));

        assertThat(Files.readAllLines(file)).containsExactly(SoakCsv.HEADER,
                "0.0,101,41.5,402.3,61,120,131,202,88.0,610.0,90,310,312,0,12,50,0,0,0,1.75,",
                "30.5,103,-1.0,-1.0,-1,-1,-1,202,87.5,611.5,91,305,305,-1,7,64,1,2,3,2.50,prober:KILL aggregator:TERM");
        List<SoakSample> read = SoakCsv.read(file);
        assertThat(read).hasSize(2);
        assertThat(read.get(1)).isEqualTo(RESTARTED);
        assertThat(read.get(0).prober().rssMib()).isEqualTo(402.3);
    }

    @Test
    void aFileWithOneDescriptorCountPerRoleReadsItAsOpenWithTheHeldCountUnknown() throws IOException {
        Path file = dir.resolve("open-only.csv");
        Files.writeString(file, SoakCsv.OPEN_ONLY_HEADER + "\n"
                + "0.0,101,41.5,402.3,61,178,202,88.0,610.0,90,183,0,12,50,0,0,0,1.75,\n");

        SoakSample read = SoakCsv.read(file).get(0);

        assertThat(read.prober()).isEqualTo(new RoleFacts(101, 41.5, 402.3, 61, -1, 178));
        assertThat(read.aggregator().openFds()).isEqualTo(183);
        assertThat(read.aggregator().transientFds()).isEqualTo(-1);
        assertThat(read.load1()).isEqualTo(1.75);
    }

    @Test
    void refusesAFileOfAnotherShapeNamingTheLine() throws IOException {
        Path noHeader = dir.resolve("no-header.csv");
        Files.writeString(noHeader, "seconds,pid\n1,2\n");
        Path shortRow = dir.resolve("short.csv");
        Files.writeString(shortRow, SoakCsv.HEADER + "\n1.0,2,3\n");
        Path notANumber = dir.resolve("nan.csv");
        Files.writeString(notANumber, SoakCsv.HEADER + "\n" + SoakCsv.row(FIRST).replace("402.3", "lots") + "\n");

        assertThatThrownBy(() -> SoakCsv.read(noHeader)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("line 1 (expected the header");
        assertThatThrownBy(() -> SoakCsv.read(shortRow)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageEndingWith("line 2 has 3 columns (expected: 21)");
        assertThatThrownBy(() -> SoakCsv.read(notANumber)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("line 2: ").hasMessageContaining("lots");
    }
}
