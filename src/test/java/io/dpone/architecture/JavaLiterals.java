package io.dpone.architecture;

import java.util.ArrayList;
import java.util.List;

/** The string literals of a Java source file, comments and character literals skipped (text blocks too). */
final class JavaLiterals {
    private JavaLiterals() {
    }

    static List<String> strings(String source) {
        List<String> out = new ArrayList<>();
        int i = 0;
        int n = source.length();
        while (i < n) {
            char c = source.charAt(i);
            if (c == '/' && i + 1 < n && source.charAt(i + 1) == '/') {
                int end = source.indexOf('\n', i);
                i = end < 0 ? n : end + 1;
            } else if (c == '/' && i + 1 < n && source.charAt(i + 1) == '*') {
                int end = source.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
            } else if (source.startsWith("\"\"\"", i)) {
                int end = source.indexOf("\"\"\"", i + 3);
                i = end < 0 ? n : end + 3;
            } else if (c == '\'') {
                i++;
                while (i < n && source.charAt(i) != '\'') {
                    i += source.charAt(i) == '\\' ? 2 : 1;
                }
                i++;
            } else if (c == '"') {
                StringBuilder literal = new StringBuilder();
                i++;
                while (i < n && source.charAt(i) != '"') {
                    if (source.charAt(i) == '\\' && i + 1 < n) {
                        literal.append(source, i, i + 2);
                        i += 2;
                    } else {
                        literal.append(source.charAt(i++));
                    }
                }
                i++;
                out.add(literal.toString());
            } else {
                i++;
            }
        }
        return out;
    }
}
