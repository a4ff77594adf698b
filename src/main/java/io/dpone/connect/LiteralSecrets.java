package io.dpone.connect;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Finds literal credentials in one alias of a connection context, where docs/connections.md says none may be: a
 * credential-looking key on the alias or anywhere under its {@code options} ({@code password}, {@code pwd},
 * {@code secret}, {@code token}, {@code access_key}, ...), a credential parameter inside its URL or a URL-valued option
 * ({@code ;password=}, {@code PASSWORD=}, {@code ?token=}, ...), and a password in a URL's user-info
 * ({@code https://user:pass@host}). Each is {@code connection.literal_secret}; its subject and message name the alias
 * and the field (and the parameter's name), never the value.
 */
final class LiteralSecrets {
    private static final String ADVICE = "; give the credential through password_env or password_file";

    private LiteralSecrets() {
    }

    /** The literal credentials of {@code entry} (alias {@code alias}), each as a blocker; {@code known} keys are fine. */
    static void find(String alias, JsonNode entry, Set<String> known, List<Blocker> out) {
        String at = "connections." + alias;
        for (Iterator<Map.Entry<String, JsonNode>> it = entry.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            if (!known.contains(field.getKey()) && Redactor.isCredentialKey(field.getKey())) {
                out.add(secret(at + "." + field.getKey(), "alias '" + alias + "' holds a literal credential in '"
                    + field.getKey() + "'"));
            }
        }
        JsonNode url = entry.get("url");
        if (url != null && url.isTextual()) {
            inUrl(alias, at + ".url", url.asText(), out);
        }
        JsonNode options = entry.get("options");
        if (options != null) {
            inOptions(alias, at + ".options", options, out);
        }
    }

    private static void inOptions(String alias, String path, JsonNode node, List<Blocker> out) {
        if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                String child = path + "." + field.getKey();
                if (Redactor.isCredentialKey(field.getKey())) {
                    out.add(secret(child, "alias '" + alias + "' holds a literal credential in option '"
                        + field.getKey() + "'"));
                } else {
                    inOptions(alias, child, field.getValue(), out);
                }
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                inOptions(alias, path + "[" + i + "]", node.get(i), out);
            }
        } else if (node.isTextual()) {
            inUrl(alias, path, node.asText(), out);
        }
    }

    /** A credential parameter ({@code ;k=v}, {@code ?k=v}, {@code &k=v}) or a password in the user-info. */
    private static void inUrl(String alias, String path, String url, List<Blocker> out) {
        for (String parameter : url.split("[;?&]")) {
            int eq = parameter.indexOf('=');
            if (eq > 0 && Redactor.isCredentialKey(parameter.substring(0, eq).strip())) {
                out.add(secret(path, "alias '" + alias + "' holds a literal credential in its URL (parameter '"
                    + parameter.substring(0, eq).strip() + "')"));
                return;
            }
        }
        int scheme = url.indexOf("://");
        if (scheme >= 0) {
            int start = scheme + 3;
            int end = start;
            while (end < url.length() && "/?#;".indexOf(url.charAt(end)) < 0) {
                end++;
            }
            String authority = url.substring(start, end);
            int atSign = authority.lastIndexOf('@');
            if (atSign >= 0 && authority.substring(0, atSign).indexOf(':') >= 0) {
                out.add(secret(path, "alias '" + alias + "' holds a password in its URL's user-info (user:password@)"));
            }
        }
    }

    private static Blocker secret(String subject, String message) {
        return Blocker.of(BlockerCode.CONNECTION_LITERAL_SECRET, subject, message + ADVICE);
    }
}
