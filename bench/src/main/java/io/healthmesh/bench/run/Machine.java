package io.healthmesh.bench.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** What the figures ran on: cores, CPU model, memory, kernel, JDK and the peers' versions. */
public final class Machine {

    private Machine() {
    }

    public static String describe() {
        return String.format("%d cores (%s), %s memory, Linux %s, %s %s; %s; %s",
                Runtime.getRuntime().availableProcessors(), cpuModel(), memory(), kernel(),
                System.getProperty("java.vm.name"), System.getProperty("java.runtime.version"),
                firstLine(List.of("/usr/sbin/haproxy", "-v")),
                firstLine(List.of("/usr/bin/prometheus-blackbox-exporter", "--version")));
    }

    private static String cpuModel() {
        return grep(Path.of("/proc/cpuinfo"), "model name");
    }

    private static String memory() {
        String kb = grep(Path.of("/proc/meminfo"), "MemTotal").replace("kB", "").trim();
        try {
            return String.format("%.1f GiB", Long.parseLong(kb) / 1024.0 / 1024.0);
        } catch (NumberFormatException e) {
            return kb;
        }
    }

    private static String kernel() {
        try {
            String[] parts = Files.readString(Path.of("/proc/version")).split(" ");
            return parts.length > 2 ? parts[2] : "?";
        } catch (IOException e) {
            return "?";
        }
    }

    private static String grep(Path file, String key) {
        try {
            for (String line : Files.readAllLines(file)) {
                if (line.startsWith(key)) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException e) {
            return "?";
        }
        return "?";
    }

    private static String firstLine(List<String> command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes()).strip();
            p.waitFor(10, TimeUnit.SECONDS);
            return out.isEmpty() ? "?" : out.lines().findFirst().orElse("?");
        } catch (IOException e) {
            return command.get(0) + " not installed";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "?";
        }
    }
}
