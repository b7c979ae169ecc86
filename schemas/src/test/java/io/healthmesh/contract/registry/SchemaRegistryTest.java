package io.healthmesh.contract.registry;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SchemaRegistryTest {

    static final String V1 = """
            {"type":"record","name":"Thing","namespace":"t","fields":[
              {"name":"id","type":"string"}]}""";
    static final String V2_DEFAULTED = """
            {"type":"record","name":"Thing","namespace":"t","fields":[
              {"name":"id","type":"string"},{"name":"size","type":"int","default":1}]}""";
    static final String V2_REQUIRED = """
            {"type":"record","name":"Thing","namespace":"t","fields":[
              {"name":"id","type":"string"},{"name":"size","type":"int"}]}""";
    static final String OTHER = """
            {"type":"record","name":"Other","namespace":"t","fields":[{"name":"n","type":"long"}]}""";

    private final SchemaRegistry registry = SchemaRegistry.inMemory();

    @Test
    void idsAreGlobalAndStartAtOne() {
        assertThat(registry.register("a-value", V1)).isEqualTo(1);
        assertThat(registry.register("b-value", OTHER)).isEqualTo(2);
        assertThat(registry.register("a-value", V2_DEFAULTED)).isEqualTo(3);
    }

    @Test
    void sameSchemaTextGetsTheSameIdWhateverItsLayoutAndSubject() {
        int id = registry.register("a-value", V1);
        assertThat(registry.register("a-value", V1.replace("\n", " ").replace(" ", ""))).isEqualTo(id);
        assertThat(registry.versions("a-value", false)).containsExactly(1);
        assertThat(registry.register("other-value", V1)).isEqualTo(id);
        assertThat(registry.version("other-value", "1", false).id()).isEqualTo(id);
    }

    @Test
    void storesTheCanonicalText() {
        int id = registry.register("a-value", V1);
        assertThat(registry.schemaById(id)).isEqualTo(SchemaRegistry.parse(V1).toString()).doesNotContain("\n");
    }

    @Test
    void invalidSchemaIs42201() {
        assertThatThrownBy(() -> registry.register("a-value", "{\"type\":\"record\"}"))
                .isInstanceOfSatisfying(RegistryException.class, e -> {
                    assertThat(e.errorCode()).isEqualTo(42201);
                    assertThat(e.httpStatus()).isEqualTo(422);
                });
        assertThatThrownBy(() -> registry.register("a-value", "not json")).hasFieldOrPropertyWithValue("errorCode", 42201);
        assertThatThrownBy(() -> registry.register("a-value", "")).hasFieldOrPropertyWithValue("errorCode", 42201);
        // Avro's parser checks defaults against their types
        assertThatThrownBy(() -> registry.register("a-value",
                "{\"type\":\"record\",\"name\":\"X\",\"fields\":[{\"name\":\"n\",\"type\":\"int\",\"default\":\"no\"}]}"))
                .hasFieldOrPropertyWithValue("errorCode", 42201);
    }

    @Test
    void backwardIsTheDefaultAndRefusesANewRequiredField() {
        registry.register("a-value", V1);
        assertThat(registry.globalLevel()).isEqualTo(CompatibilityLevel.BACKWARD);
        assertThatThrownBy(() -> registry.register("a-value", V2_REQUIRED))
                .isInstanceOfSatisfying(RegistryException.class, e -> {
                    assertThat(e.errorCode()).isEqualTo(409);
                    assertThat(e.httpStatus()).isEqualTo(409);
                    assertThat(e.getMessage()).contains("READER_FIELD_MISSING_DEFAULT_VALUE").contains("size");
                });
        assertThat(registry.register("a-value", V2_DEFAULTED)).isEqualTo(2);
        assertThat(registry.versions("a-value", false)).containsExactly(1, 2);
    }

    @Test
    void forwardRefusesRemovingARequiredField() {
        registry.setSubjectLevel("a-value", CompatibilityLevel.FORWARD);
        registry.register("a-value", V2_REQUIRED);
        // old readers need "size", which the new writer no longer writes
        assertThatThrownBy(() -> registry.register("a-value", V1)).hasFieldOrPropertyWithValue("errorCode", 409);
        // adding a field is fine for old readers: they skip it
        registry.setSubjectLevel("a-value", CompatibilityLevel.FORWARD);
        String v3 = V2_REQUIRED.replace("{\"name\":\"size\",\"type\":\"int\"}",
                "{\"name\":\"size\",\"type\":\"int\"},{\"name\":\"extra\",\"type\":\"string\"}");
        assertThat(registry.register("a-value", v3)).isPositive();
    }

    @Test
    void fullNeedsBothDirections() {
        registry.setGlobalLevel(CompatibilityLevel.FULL);
        registry.register("a-value", V1);
        assertThatThrownBy(() -> registry.register("a-value", V2_REQUIRED)).hasFieldOrPropertyWithValue("errorCode", 409);
        assertThat(registry.register("a-value", V2_DEFAULTED)).isPositive();
    }

    @Test
    void transitiveChecksEveryLiveVersionNotOnlyTheLatest() {
        String v1 = V1;
        String v2 = V2_DEFAULTED;
        // v3 drops the default again: readable from v2 data (size present) but not from v1 data
        String v3 = V2_REQUIRED;
        registry.setSubjectLevel("plain-value", CompatibilityLevel.BACKWARD);
        registry.register("plain-value", v1);
        registry.register("plain-value", v2);
        assertThat(registry.register("plain-value", v3)).isPositive();

        registry.setSubjectLevel("trans-value", CompatibilityLevel.BACKWARD_TRANSITIVE);
        registry.register("trans-value", v1);
        registry.register("trans-value", v2);
        assertThatThrownBy(() -> registry.register("trans-value", v3)).hasFieldOrPropertyWithValue("errorCode", 409);
    }

    @Test
    void noneAcceptsAnything() {
        registry.setSubjectLevel("a-value", CompatibilityLevel.NONE);
        registry.register("a-value", V1);
        assertThat(registry.register("a-value", OTHER)).isPositive();
    }

    @Test
    void compatibilityLevelsParseAndRefuseUnknownNames() {
        assertThat(CompatibilityLevel.parse("full_transitive")).isEqualTo(CompatibilityLevel.FULL_TRANSITIVE);
        assertThatThrownBy(() -> CompatibilityLevel.parse("SIDEWAYS"))
                .hasFieldOrPropertyWithValue("errorCode", 42203)
                .hasMessageContaining("SIDEWAYS");
    }

    @Test
    void subjectConfigOverridesGlobalAndCanBeRemoved() {
        assertThatThrownBy(() -> registry.subjectLevel("a-value", false)).hasFieldOrPropertyWithValue("errorCode", 40408);
        assertThat(registry.subjectLevel("a-value", true)).isEqualTo(CompatibilityLevel.BACKWARD);
        registry.setSubjectLevel("a-value", CompatibilityLevel.NONE);
        assertThat(registry.subjectLevel("a-value", false)).isEqualTo(CompatibilityLevel.NONE);
        assertThat(registry.deleteSubjectLevel("a-value")).isEqualTo(CompatibilityLevel.NONE);
        assertThat(registry.subjectLevel("a-value", true)).isEqualTo(CompatibilityLevel.BACKWARD);
    }

    @Test
    void lookupFindsTheVersionHoldingASchema() {
        registry.register("a-value", V1);
        registry.register("a-value", V2_DEFAULTED);
        RegisteredSchema found = registry.lookup("a-value", V2_DEFAULTED, false);
        assertThat(found.version()).isEqualTo(2);
        assertThat(found.id()).isEqualTo(2);
        assertThatThrownBy(() -> registry.lookup("a-value", OTHER, false)).hasFieldOrPropertyWithValue("errorCode", 40403);
        assertThatThrownBy(() -> registry.lookup("nope", V1, false)).hasFieldOrPropertyWithValue("errorCode", 40401);
    }

    @Test
    void versionsByNumberAndLatestAndTheirErrors() {
        registry.register("a-value", V1);
        registry.register("a-value", V2_DEFAULTED);
        assertThat(registry.version("a-value", "latest", false).version()).isEqualTo(2);
        assertThat(registry.version("a-value", "-1", false).version()).isEqualTo(2);
        assertThat(registry.version("a-value", "1", false).schema()).isEqualTo(SchemaRegistry.parse(V1).toString());
        assertThatThrownBy(() -> registry.version("a-value", "7", false)).hasFieldOrPropertyWithValue("errorCode", 40402);
        assertThatThrownBy(() -> registry.version("nope", "1", false)).hasFieldOrPropertyWithValue("errorCode", 40401);
        for (String bad : List.of("0", "-2", "abc", "99999999999", "")) {
            assertThatThrownBy(() -> registry.version("a-value", bad, false)).as(bad).hasFieldOrPropertyWithValue("errorCode", 42202);
        }
        assertThatThrownBy(() -> registry.schemaById(99)).hasFieldOrPropertyWithValue("errorCode", 40403);
    }

    @Test
    void softDeletedVersionsLeaveListingsButTheirIdsStillResolve() {
        int id1 = registry.register("a-value", V1);
        registry.register("a-value", V2_DEFAULTED);
        assertThat(registry.deleteVersion("a-value", "1", false)).isEqualTo(1);
        assertThat(registry.versions("a-value", false)).containsExactly(2);
        assertThat(registry.versions("a-value", true)).containsExactly(1, 2);
        assertThat(registry.schemaById(id1)).isNotEmpty();
        assertThatThrownBy(() -> registry.version("a-value", "1", false)).hasFieldOrPropertyWithValue("errorCode", 40402);
        assertThat(registry.version("a-value", "1", true).id()).isEqualTo(id1);
        assertThatThrownBy(() -> registry.deleteVersion("a-value", "1", false)).hasFieldOrPropertyWithValue("errorCode", 40406);
        assertThatThrownBy(() -> registry.deleteVersion("a-value", "2", true)).hasFieldOrPropertyWithValue("errorCode", 40407);
        assertThat(registry.deleteVersion("a-value", "1", true)).isEqualTo(1);
        assertThat(registry.versions("a-value", true)).containsExactly(2);
    }

    @Test
    void softDeletedSubjectDisappearsAndReRegisteringKeepsTheId() {
        int id = registry.register("a-value", V1);
        registry.register("a-value", V2_DEFAULTED);
        assertThat(registry.deleteSubject("a-value", false)).containsExactly(1, 2);
        assertThat(registry.subjects(false)).isEmpty();
        assertThat(registry.subjects(true)).containsExactly("a-value");
        assertThatThrownBy(() -> registry.versions("a-value", false)).hasFieldOrPropertyWithValue("errorCode", 40401);
        assertThatThrownBy(() -> registry.deleteSubject("a-value", false)).hasFieldOrPropertyWithValue("errorCode", 40404);
        // compatibility no longer binds: the subject starts over, the schema keeps its id
        assertThat(registry.register("a-value", V1)).isEqualTo(id);
        assertThat(registry.versions("a-value", false)).containsExactly(3);
    }

    @Test
    void permanentSubjectDeleteNeedsASoftDeleteFirst() {
        int id = registry.register("a-value", V1);
        assertThatThrownBy(() -> registry.deleteSubject("a-value", true)).hasFieldOrPropertyWithValue("errorCode", 40405);
        registry.deleteSubject("a-value", false);
        assertThat(registry.deleteSubject("a-value", true)).containsExactly(1);
        assertThat(registry.subjects(true)).isEmpty();
        assertThatThrownBy(() -> registry.schemaById(id)).hasFieldOrPropertyWithValue("errorCode", 40403);
        assertThatThrownBy(() -> registry.deleteSubject("a-value", false)).hasFieldOrPropertyWithValue("errorCode", 40401);
    }

    @Test
    void compatibilityTestNamesVersionsOrTheLevel() {
        registry.register("a-value", V1);
        assertThat(registry.testCompatibility("a-value", "latest", V2_DEFAULTED)).isEmpty();
        assertThat(registry.testCompatibility("a-value", "1", V2_REQUIRED)).isNotEmpty();
        assertThat(registry.testCompatibility("a-value", null, V2_REQUIRED)).isNotEmpty();
        assertThat(registry.testCompatibility("fresh-value", "latest", OTHER)).isEmpty();
        assertThatThrownBy(() -> registry.testCompatibility("a-value", "5", V1)).hasFieldOrPropertyWithValue("errorCode", 40402);
        assertThatThrownBy(() -> registry.testCompatibility("fresh-value", "1", V1)).hasFieldOrPropertyWithValue("errorCode", 40401);
        assertThatThrownBy(() -> registry.testCompatibility("a-value", "x", V1)).hasFieldOrPropertyWithValue("errorCode", 42202);
        assertThatThrownBy(() -> registry.testCompatibility("a-value", "1", "{")).hasFieldOrPropertyWithValue("errorCode", 42201);
    }

    @Test
    void invalidSubjectNamesAreRefused() {
        assertThatThrownBy(() -> registry.register(" ", V1)).hasFieldOrPropertyWithValue("errorCode", 42208);
        assertThatThrownBy(() -> registry.register("a\u0000b", V1)).hasFieldOrPropertyWithValue("errorCode", 42208);
    }

    @Test
    void aRegistryReopenedOnTheSameLogHasTheSameIdsVersionsDeletionsAndConfig() {
        InMemoryRegistryLog log = new InMemoryRegistryLog();
        SchemaRegistry first = SchemaRegistry.open(log);
        first.register("a-value", V1);
        first.register("b-value", OTHER);
        first.register("a-value", V2_DEFAULTED);
        first.deleteVersion("a-value", "1", false);
        first.setGlobalLevel(CompatibilityLevel.FULL);
        first.setSubjectLevel("b-value", CompatibilityLevel.NONE);
        first.register("c-value", V1);
        first.deleteSubject("c-value", false);
        first.deleteSubject("c-value", true);

        SchemaRegistry second = SchemaRegistry.open(log);
        assertThat(second.subjects(true)).containsExactly("a-value", "b-value");
        assertThat(second.versions("a-value", false)).containsExactly(2);
        assertThat(second.versions("a-value", true)).containsExactly(1, 2);
        assertThat(second.schemaById(1)).isEqualTo(first.schemaById(1));
        assertThat(second.globalLevel()).isEqualTo(CompatibilityLevel.FULL);
        assertThat(second.subjectLevel("b-value", false)).isEqualTo(CompatibilityLevel.NONE);
        // the next id continues after the highest one in the log
        assertThat(second.register("d-value", "\"string\"")).isEqualTo(4);
    }

    @Test
    void schemasLoggedAsSentByAnotherRegistryMatchTheirCanonicalForm() {
        InMemoryRegistryLog log = new InMemoryRegistryLog();
        log.append(new RegistryRecord.SchemaVersion("a-value", 1, 12, V1, false));
        SchemaRegistry registry = SchemaRegistry.open(log);
        assertThat(registry.register("a-value", V1.replace("\n", ""))).isEqualTo(12);
        assertThat(registry.versions("a-value", false)).containsExactly(1);
        assertThat(registry.register("b-value", OTHER)).isEqualTo(13);
    }

    @Test
    void aFailedLogWriteChangesNothing() {
        RegistryLog failing = new RegistryLog() {
            @Override
            public List<RegistryRecord> replay() {
                return List.of();
            }

            @Override
            public void append(RegistryRecord record) {
                throw new RegistryException(RegistryException.STORE_ERROR, "store down");
            }
        };
        SchemaRegistry broken = SchemaRegistry.open(failing);
        assertThatThrownBy(() -> broken.register("a-value", V1)).hasFieldOrPropertyWithValue("errorCode", 50001);
        assertThat(broken.subjects(true)).isEmpty();
        assertThatThrownBy(() -> broken.schemaById(1)).hasFieldOrPropertyWithValue("errorCode", 40403);
    }

    @Test
    void concurrentRegistrationsOfOneSchemaYieldOneIdAndOneVersion() throws Exception {
        int threads = 8;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Integer>> results = new ArrayList<>();
            for (int i = 0; i < threads * 4; i++) {
                String subject = "s" + (i % 2) + "-value";
                Callable<Integer> task = () -> {
                    start.await(10, TimeUnit.SECONDS);
                    return registry.register(subject, V1);
                };
                results.add(pool.submit(task));
            }
            start.countDown();
            Set<Integer> ids = new HashSet<>();
            for (Future<Integer> result : results) {
                ids.add(result.get(10, TimeUnit.SECONDS));
            }
            assertThat(ids).containsExactly(1);
            assertThat(registry.versions("s0-value", false)).containsExactly(1);
            assertThat(registry.versions("s1-value", false)).containsExactly(1);
        } finally {
            pool.shutdownNow();
        }
    }
}
