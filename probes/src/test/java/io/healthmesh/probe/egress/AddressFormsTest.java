package io.healthmesh.probe.egress;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

class AddressFormsTest {

    @Test
    void thePlainSpellingIsReadDirectly() throws Exception {
        assertThat(AddressForms.dottedDecimal("127.0.0.1")).containsExactly(127, 0, 0, 1);
        assertThat(AddressForms.dottedDecimal("0.0.0.0")).containsExactly(0, 0, 0, 0);
        assertThat(AddressForms.dottedDecimal("255.255.255.255")).containsExactly(-1, -1, -1, -1);
        assertThat(AddressForms.dottedDecimal("10.200.30.4")).containsExactly(10, -56, 30, 4);
        assertThat(AddressForms.literal("192.168.1.20")).contains(InetAddress.getByName("192.168.1.20"));
    }

    @Test
    void everyOtherSpellingIsLeftToTheGeneralParsers() throws Exception {
        for (String other : List.of("0177.0.0.1", "127.000.000.001", "010.0.0.1", "127.1", "127.0.1", "2130706433",
                "0x7f.0.0.1", "127.0.0.1.", " 10.0.0.1", "10.0.0.1 ", "256.0.0.1", "1.2.3.256", "1.2.3", "1.2.3.4.5",
                "1..2.3", ".1.2.3", "1.2.3.", "::1", "[::1]", "example.com", "1.2.3.4a", "")) {
            assertThat(AddressForms.dottedDecimal(other)).as(other).isNull();
        }
        // what the general parsers make of them did not change
        assertThat(AddressForms.literal("0177.0.0.1")).contains(InetAddress.getByName("127.0.0.1"));
        assertThat(AddressForms.literal("010.0.0.1")).contains(InetAddress.getByName("10.0.0.1")); // Netty's reading
        assertThat(AddressForms.literal("127.0.0.1.")).contains(InetAddress.getByName("127.0.0.1"));
        assertThat(AddressForms.literal(" 10.0.0.1")).contains(InetAddress.getByName("10.0.0.1"));
        assertThat(AddressForms.literal("example.com")).isEmpty();
    }

    @Test
    void theDirectReadingAgreesWithTheGeneralParsersOnEverySpelling() {
        SplittableRandom random = new SplittableRandom(15);
        List<String> spellings = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            int parts = random.nextBoolean() ? 4 : 1 + random.nextInt(5);
            StringBuilder host = new StringBuilder();
            for (int p = 0; p < parts; p++) {
                if (p > 0) {
                    host.append('.');
                }
                int value = random.nextInt(10) == 0 ? random.nextInt(1_000) : random.nextInt(256);
                switch (random.nextInt(12)) {
                    case 0 -> host.append('0').append(value);                   // octal to inet_aton
                    case 1 -> host.append("0x").append(Integer.toHexString(value));
                    case 2 -> { }                                                // an empty part
                    default -> host.append(value);
                }
            }
            if (random.nextInt(20) == 0) {
                host.append('.');
            }
            spellings.add(host.toString());
        }
        int plain = 0;
        for (String host : spellings) {
            Optional<InetAddress> general = AddressForms.anySpelling(host);
            assertThat(AddressForms.literal(host)).as(host).isEqualTo(general);
            if (AddressForms.dottedDecimal(host) != null) {
                plain++;
                assertThat(general).as(host).isPresent();
            }
        }
        assertThat(plain).as("plain spellings among the samples").isGreaterThan(1_000);
    }
}
