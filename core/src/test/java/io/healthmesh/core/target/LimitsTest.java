package io.healthmesh.core.target;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

class LimitsTest {

    @Test
    void isRegionAgreesWithTheRegionPatternEverywhere() {
        List<String> names = new ArrayList<>();
        names.add("");
        names.add("eu-west-1");
        names.add("a".repeat(64));
        names.add("a".repeat(65));
        names.add("ü");
        names.add("eu west");
        names.add("eu\n");
        for (char c = 0; c < 0x300; c++) {
            names.add(String.valueOf(c));
            names.add("eu-" + c + "-1");
        }
        names.add("\uD83D\uDE00"); // a surrogate pair
        String alphabet = "az AZ09._-/:\u00e9\u0660\uFF10";
        SplittableRandom random = new SplittableRandom(15);
        for (int i = 0; i < 5_000; i++) {
            StringBuilder name = new StringBuilder();
            int length = random.nextInt(70);
            for (int k = 0; k < length; k++) {
                name.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            names.add(name.toString());
        }
        for (String name : names) {
            assertThat(Limits.isRegion(name)).as("%s", name).isEqualTo(Limits.REGION.matcher(name).matches());
        }
        assertThat(Limits.isRegion(null)).isFalse();
        assertThat(names.stream().filter(Limits::isRegion).count()).as("some of them are regions").isGreaterThan(100);
    }
}
