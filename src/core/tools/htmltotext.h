#pragma once

#include <QString>
#include <QStringView>
#include <QUrl>

namespace Sandpiper {

// Turns a web page into the plain text a model reads well: what a reader sees, not the
// page's machinery. Scripts, styles, navigation, asides, forms' hidden parts and page-wide
// headers and footers are dropped; headings become "# ", list items "- " or "1. ", links
// "text (url)", table rows "cell | cell"; paragraphs are separated by blank lines.
class HtmlToText
{
public:
    struct Page {
        QString title;
        QString text;
    };

    // BASEURL resolves relative links (a <base href> in the page takes precedence).
    static Page convert(QStringView html, const QUrl &baseUrl = {});
    // The text of an HTML fragment on one line: tags dropped, entities decoded, whitespace
    // collapsed. For search snippets that arrive with <b> or <strong> in them.
    static QString fragmentToPlainText(QStringView html);
};

} // namespace Sandpiper
