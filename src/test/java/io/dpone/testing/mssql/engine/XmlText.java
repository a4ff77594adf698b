package io.dpone.testing.mssql.engine;

import java.io.StringReader;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * An untyped {@code xml} value as SQL Server stores and returns it: parsed (a fragment may have several top-level
 * nodes and text), then written back without the XML declaration, attributes in double quotes in their order, an
 * empty element as {@code <a />}, CDATA as escaped text, whitespace-only text between elements dropped (SQL
 * Server's default; {@code xml:space="preserve"} keeps it), comments and processing instructions kept. Text that is
 * not XML is error 9400 ({@code XML parsing: line L, character C, ..}), not SQL Server's exact message per case.
 */
final class XmlText {
    private static final String ROOT = "twin-fragment-root";
    private static final XMLInputFactory FACTORY = factory();

    private XmlText() {
    }

    private static XMLInputFactory factory() {
        XMLInputFactory f = XMLInputFactory.newFactory();
        f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        f.setProperty(XMLInputFactory.IS_COALESCING, true);
        f.setProperty(XMLInputFactory.IS_REPLACING_ENTITY_REFERENCES, true);
        return f;
    }

    static String normalise(String text) {
        String body = text.strip();
        if (body.startsWith("<?xml")) {
            int end = body.indexOf("?>");
            body = end < 0 ? body : body.substring(end + 2);
        }
        StringBuilder out = new StringBuilder();
        try {
            XMLStreamReader r = FACTORY.createXMLStreamReader(new StringReader("<" + ROOT + ">" + body + "</" + ROOT
                + ">"));
            java.util.ArrayDeque<Boolean> preserve = new java.util.ArrayDeque<>();
            preserve.push(false);
            int depth = 0;
            boolean open = false; // a start tag written without its '>' yet (it may become "<a />")
            while (r.hasNext()) {
                int event = r.next();
                switch (event) {
                    case XMLStreamConstants.START_ELEMENT -> {
                        depth++;
                        if (depth == 1) {
                            continue;
                        }
                        open = close(out, open);
                        out.append('<').append(name(r.getPrefix(), r.getLocalName()));
                        for (int i = 0; i < r.getNamespaceCount(); i++) {
                            String p = r.getNamespacePrefix(i);
                            out.append(' ').append(p == null || p.isEmpty() ? "xmlns" : "xmlns:" + p).append("=\"")
                                .append(escape(r.getNamespaceURI(i), true)).append('"');
                        }
                        boolean keep = preserve.peek();
                        for (int i = 0; i < r.getAttributeCount(); i++) {
                            String n = name(r.getAttributePrefix(i), r.getAttributeLocalName(i));
                            out.append(' ').append(n).append("=\"").append(escape(r.getAttributeValue(i), true))
                                .append('"');
                            if (n.equals("xml:space")) {
                                keep = r.getAttributeValue(i).equals("preserve");
                            }
                        }
                        preserve.push(keep);
                        open = true;
                    }
                    case XMLStreamConstants.END_ELEMENT -> {
                        depth--;
                        if (depth == 0) {
                            continue;
                        }
                        preserve.pop();
                        if (open) {
                            out.append(" />");
                            open = false;
                        } else {
                            out.append("</").append(name(r.getPrefix(), r.getLocalName())).append('>');
                        }
                    }
                    case XMLStreamConstants.CHARACTERS, XMLStreamConstants.CDATA, XMLStreamConstants.SPACE -> {
                        String t = r.getText();
                        if (t.isBlank() && !preserve.peek()) {
                            continue;
                        }
                        open = close(out, open);
                        out.append(escape(t, false));
                    }
                    case XMLStreamConstants.COMMENT -> {
                        open = close(out, open);
                        out.append("<!--").append(r.getText()).append("-->");
                    }
                    case XMLStreamConstants.PROCESSING_INSTRUCTION -> {
                        open = close(out, open);
                        String data = r.getPIData();
                        out.append("<?").append(r.getPITarget()).append(data == null || data.isEmpty() ? ""
                            : " " + data).append("?>");
                    }
                    default -> {
                    }
                }
            }
        } catch (XMLStreamException e) {
            int line = e.getLocation() == null ? 1 : e.getLocation().getLineNumber();
            int column = e.getLocation() == null ? 1 : e.getLocation().getColumnNumber();
            throw new ClrTypes.Raised(new SqlServerError(9400, 1, 16, "XML parsing: line " + line + ", character "
                + column + ", " + firstLine(e.getMessage())));
        }
        return out.toString();
    }

    private static boolean close(StringBuilder out, boolean open) {
        if (open) {
            out.append('>');
        }
        return false;
    }

    private static String name(String prefix, String local) {
        return prefix == null || prefix.isEmpty() ? local : prefix + ":" + local;
    }

    private static String firstLine(String message) {
        String m = message == null ? "not well-formed" : message;
        int nl = m.lastIndexOf("Message: ");
        return (nl >= 0 ? m.substring(nl + 9) : m).strip();
    }

    private static String escape(String s, boolean attribute) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            switch (ch) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append(attribute ? "&quot;" : "\"");
                default -> b.append(ch);
            }
        }
        return b.toString();
    }
}
