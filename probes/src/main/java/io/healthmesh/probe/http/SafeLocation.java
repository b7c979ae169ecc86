package io.healthmesh.probe.http;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A redirect {@code Location} as it may appear in a probe's detail: scheme, host and path only. User info
 * (credentials), path parameters ({@code ;jsessionid=}), query and fragment are removed, since tokens travel
 * there; a Location of any scheme other than http and https is shown as its scheme alone ({@code data:},
 * {@code javascript:}, {@code file:} carry their whole payload after it). Control characters are replaced and the
 * text is at most {@value #MAX_CHARS} characters. Details are published to Kafka and shown to operators; a probe
 * must not become a way to read what a server answers.
 */
final class SafeLocation {

    static final int MAX_CHARS = 200;
    private static final int MAX_SCHEME_CHARS = 32;
    private static final Pattern SCHEME = Pattern.compile("([A-Za-z][A-Za-z0-9+.\\-]*):");

    private SafeLocation() {
    }

    static String of(String location) {
        if (location == null) {
            return "";
        }
        String s = location.trim();
        Matcher scheme = SCHEME.matcher(s);
        if (scheme.lookingAt()) {
            String name = scheme.group(1).toLowerCase(Locale.ROOT);
            if (!name.equals("http") && !name.equals("https")) {
                return (name.length() > MAX_SCHEME_CHARS ? name.substring(0, MAX_SCHEME_CHARS) + "..." : name) + ":";
            }
            s = name + s.substring(scheme.end() - 1);
        }
        int cut = indexOfAny(s, '?', '#');
        boolean cutSomething = cut >= 0;
        if (cut >= 0) {
            s = s.substring(0, cut);
        }
        int authorityStart = s.indexOf("//");
        int pathStart = 0;
        if (authorityStart >= 0) {
            int authorityEnd = s.indexOf('/', authorityStart + 2);
            String authority = s.substring(authorityStart + 2, authorityEnd < 0 ? s.length() : authorityEnd);
            int at = authority.lastIndexOf('@');
            String head = s.substring(0, authorityStart + 2) + (at >= 0 ? authority.substring(at + 1) : authority);
            s = head + (authorityEnd < 0 ? "" : s.substring(authorityEnd));
            pathStart = head.length();
        }
        String path = withoutParameters(s.substring(pathStart));
        cutSomething |= path.length() < s.length() - pathStart;
        s = s.substring(0, pathStart) + path;
        StringBuilder out = new StringBuilder(Math.min(s.length(), MAX_CHARS) + 4);
        for (int i = 0; i < s.length() && out.length() < MAX_CHARS; i++) {
            char c = s.charAt(i);
            out.append(c < 0x20 || c == 0x7f ? '?' : c);
        }
        if (out.length() < s.length()) {
            out.append("...");
        }
        return cutSomething ? out + " (query removed)" : out.toString();
    }

    /** The path without the {@code ;parameters} of each segment. */
    private static String withoutParameters(String path) {
        if (path.indexOf(';') < 0) {
            return path;
        }
        StringBuilder out = new StringBuilder(path.length());
        boolean inParameters = false;
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c == '/') {
                inParameters = false;
            } else if (c == ';') {
                inParameters = true;
            }
            if (!inParameters) {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static int indexOfAny(String s, char a, char b) {
        int ia = s.indexOf(a);
        int ib = s.indexOf(b);
        return ia < 0 ? ib : ib < 0 ? ia : Math.min(ia, ib);
    }
}
