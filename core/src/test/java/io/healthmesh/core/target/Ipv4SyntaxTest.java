package io.healthmesh.core.target;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Random;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link TargetValidator#isIpv4}: dotted quads only, checked against the rule written as a pattern. */
class Ipv4SyntaxTest {

    /** The rule as a pattern: an octet is 0, or 1 to 3 digits without a leading zero, at most 255. */
    private static final Pattern OCTET = Pattern.compile("0|[1-9][0-9]{0,2}");

    @ParameterizedTest
    @ValueSource(strings = {"0.0.0.0", "255.255.255.255", "192.0.2.1", "10.0.0.255", "1.22.133.9"})
    void dottedQuadsAreAddresses(String text) {
        assertThat(TargetValidator.isIpv4(text)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", ".", "1.2.3", "1.2.3.4.5", "1.2.3.4.", ".1.2.3.4", "1..2.3", "256.0.0.1", "1.2.3.256",
            "01.2.3.4", "1.2.3.04", "00.1.1.1", "1000.1.1.1", "1.2.3.+4", "1.2.3.-4", "1.2.3.4 ", " 1.2.3.4",
            "1.2.3.a", "\u0661.2.3.4", "1.2.3.4\u0000", "9999999999.1.1.1", "1,2,3,4"})
    void anythingElseIsNot(String text) {
        assertThat(TargetValidator.isIpv4(text)).isFalse();
    }

    @Test
    void agreesWithThePatternOnRandomText() {
        Random random = new Random(42);
        String alphabet = "0123456789..25a";
        for (int n = 0; n < 200_000; n++) {
            StringBuilder text = new StringBuilder();
            int length = random.nextInt(18);
            for (int i = 0; i < length; i++) {
                text.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String s = text.toString();
            assertThat(TargetValidator.isIpv4(s)).as("'%s'", s).isEqualTo(byPattern(s));
        }
    }

    private static boolean byPattern(String text) {
        String[] parts = text.split("\\.", -1);
        if (parts.length != 4) {
            return false;
        }
        for (String part : parts) {
            if (!OCTET.matcher(part).matches() || Integer.parseInt(part) > 255) {
                return false;
            }
        }
        return true;
    }
}
