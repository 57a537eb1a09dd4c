#include "tools/htmltotext.h"

#include "tools/htmltokenizer.h"

#include <QList>
#include <QRegularExpression>

namespace Sandpiper {

namespace {

using Token = HtmlTokenizer::Token;

// Elements whose content is never part of what a reader came for.
bool isDropped(const Token &tag)
{
    static const QStringList dropped = {
        QStringLiteral("script"),   QStringLiteral("style"),    QStringLiteral("noscript"), QStringLiteral("svg"),
        QStringLiteral("nav"),      QStringLiteral("aside"),    QStringLiteral("template"), QStringLiteral("iframe"),
        QStringLiteral("object"),   QStringLiteral("canvas"),   QStringLiteral("select"),   QStringLiteral("button"),
        QStringLiteral("textarea"), QStringLiteral("dialog"),   QStringLiteral("math"),     QStringLiteral("noembed"),
        QStringLiteral("noframes"), QStringLiteral("datalist"), QStringLiteral("map")};
    if (dropped.contains(tag.name))
        return true;
    const QString role = tag.attribute(u"role");
    return tag.hasAttribute(u"hidden") || tag.attribute(u"aria-hidden") == QLatin1String("true") ||
           role == QLatin1String("navigation") || role == QLatin1String("banner") ||
           role == QLatin1String("contentinfo") || role == QLatin1String("complementary");
}

bool isParagraphBlock(QStringView tag)
{
    static const QStringList blocks = {
        QStringLiteral("p"),      QStringLiteral("blockquote"), QStringLiteral("pre"),     QStringLiteral("table"),
        QStringLiteral("figure"), QStringLiteral("section"),    QStringLiteral("article"), QStringLiteral("main"),
        QStringLiteral("form"),   QStringLiteral("fieldset"),   QStringLiteral("address"), QStringLiteral("details"),
        QStringLiteral("dl"),     QStringLiteral("hr"),         QStringLiteral("header"),  QStringLiteral("footer"),
        QStringLiteral("h1"),     QStringLiteral("h2"),         QStringLiteral("h3"),      QStringLiteral("h4"),
        QStringLiteral("h5"),     QStringLiteral("h6")};
    return blocks.contains(tag);
}

bool isLineBlock(QStringView tag)
{
    static const QStringList blocks = {
        QStringLiteral("div"),    QStringLiteral("li"),      QStringLiteral("tr"),         QStringLiteral("dt"),
        QStringLiteral("dd"),     QStringLiteral("caption"), QStringLiteral("figcaption"), QStringLiteral("summary"),
        QStringLiteral("legend"), QStringLiteral("option"),  QStringLiteral("center"),     QStringLiteral("ul"),
        QStringLiteral("ol"),     QStringLiteral("body"),    QStringLiteral("label")};
    return blocks.contains(tag);
}

int headingLevel(QStringView tag)
{
    if (tag.size() == 2 && tag[0] == QLatin1Char('h') && tag[1] >= QLatin1Char('1') && tag[1] <= QLatin1Char('6'))
        return tag[1].unicode() - '0';
    return 0;
}

bool isSpace(QChar c)
{
    return c.isSpace() || c == QChar(0xA0);
}

// Characters that only steer layout and would split words for the model.
bool isInvisible(QChar c)
{
    return c == QChar(0xAD) || c == QChar(0x200B) || c == QChar(0xFEFF);
}

class Converter
{
public:
    explicit Converter(QUrl baseUrl)
        : m_base(std::move(baseUrl))
    {}

    HtmlToText::Page run(QStringView html)
    {
        HtmlTokenizer tokenizer(html);
        for (Token token = tokenizer.next(); token.type != Token::Type::End; token = tokenizer.next()) {
            if (m_dropDepth > 0) {
                trackDropped(token);
                continue;
            }
            switch (token.type) {
            case Token::Type::Text:
                if (m_inTitle)
                    m_page.title += token.text;
                else
                    text(token.text);
                break;
            case Token::Type::StartTag:
                start(token);
                break;
            case Token::Type::EndTag:
                end(token);
                break;
            case Token::Type::Comment:
            case Token::Type::End:
                break;
            }
        }
        m_page.title = m_page.title.simplified();
        m_page.text = tidy(m_out);
        if (m_page.title.isEmpty())
            m_page.title = m_firstHeading.simplified();
        return m_page;
    }

private:
    struct List {
        bool ordered = false;
        int next = 1;
    };

    void trackDropped(const Token &token)
    {
        if (token.type == Token::Type::StartTag && token.name == m_dropTag && !token.selfClosing)
            ++m_dropDepth;
        else if (token.type == Token::Type::EndTag && token.name == m_dropTag)
            --m_dropDepth;
    }

    void start(const Token &tag)
    {
        const QString &name = tag.name;
        // A page-wide header or footer is chrome; one inside <article> or <main> holds the
        // headline and byline.
        const bool chrome = (name == QLatin1String("header") || name == QLatin1String("footer")) && m_articleDepth == 0;
        if (!HtmlTokenizer::isVoidElement(name) && !tag.selfClosing && (isDropped(tag) || chrome)) {
            m_dropTag = name;
            m_dropDepth = 1;
            return;
        }
        if (name == QLatin1String("title")) {
            m_inTitle = !tag.selfClosing;
            return;
        }
        if (name == QLatin1String("base")) {
            const QUrl base(tag.attribute(u"href"));
            if (base.isValid())
                m_base = m_base.resolved(base);
            return;
        }
        if (name == QLatin1String("article") || name == QLatin1String("main"))
            ++m_articleDepth;

        if (const int level = headingLevel(name)) {
            breakLine(2);
            m_marker = QString(level, QLatin1Char('#')) + QLatin1Char(' ');
            m_headingStart = m_out.size();
            m_inHeading = true;
            return;
        }
        if (name == QLatin1String("ul") || name == QLatin1String("ol") || name == QLatin1String("menu")) {
            breakLine(m_lists.isEmpty() ? 2 : 1);
            List list;
            list.ordered = name == QLatin1String("ol");
            list.next = tag.hasAttribute(u"start") ? tag.attribute(u"start").toInt() : 1;
            m_lists.append(list);
            return;
        }
        if (name == QLatin1String("li")) {
            breakLine(1);
            const QString indent(2 * std::max<qsizetype>(0, m_lists.size() - 1), QLatin1Char(' '));
            if (!m_lists.isEmpty() && m_lists.last().ordered)
                m_marker = indent + QString::number(m_lists.last().next++) + QStringLiteral(". ");
            else
                m_marker = indent + QStringLiteral("- ");
            return;
        }
        if (name == QLatin1String("tr")) {
            m_inCell = false; // </td> and </tr> may be left out
            breakLine(1);
            m_cellsInRow = 0;
            return;
        }
        if (name == QLatin1String("td") || name == QLatin1String("th")) {
            m_inCell = false;
            if (m_cellsInRow++ > 0) {
                flush();
                m_out += QStringLiteral(" | ");
            }
            m_inCell = true;
            return;
        }
        if (name == QLatin1String("br")) {
            if (m_inCell)
                m_space = true;
            else
                m_break = m_break > 0 ? 2 : 1;
            return;
        }
        if (name == QLatin1String("pre")) {
            breakLine(2);
            ++m_preDepth;
            m_preStart = true;
            return;
        }
        if (name == QLatin1String("a")) {
            closeLink();
            const QString href = tag.attribute(u"href").trimmed();
            const QUrl target = m_base.resolved(QUrl(href));
            const QString scheme = target.scheme();
            // Links within the page and to scripts tell the model nothing.
            const bool samePage = target.adjusted(QUrl::RemoveFragment) == m_base.adjusted(QUrl::RemoveFragment);
            if (!href.isEmpty() && !href.startsWith(QLatin1Char('#')) && !samePage &&
                (scheme == QLatin1String("http") || scheme == QLatin1String("https")))
                m_link = target.toString();
            m_inLink = true;
            m_linkTextStart = -1;
            m_linkAlt.clear();
            return;
        }
        if (name == QLatin1String("img")) {
            if (m_inLink && m_linkAlt.isEmpty())
                m_linkAlt = tag.attribute(u"alt").simplified();
            return;
        }
        if (isParagraphBlock(name))
            breakLine(2);
        else if (isLineBlock(name))
            breakLine(1);
    }

    void end(const Token &tag)
    {
        const QString &name = tag.name;
        if (name == QLatin1String("title")) {
            m_inTitle = false;
            return;
        }
        if ((name == QLatin1String("article") || name == QLatin1String("main")) && m_articleDepth > 0)
            --m_articleDepth;
        if (headingLevel(name)) {
            if (m_inHeading && m_firstHeading.isEmpty() && m_headingStart >= 0)
                m_firstHeading = m_out.mid(m_headingStart);
            m_inHeading = false;
            m_marker.clear();
            breakLine(2);
            return;
        }
        if (name == QLatin1String("ul") || name == QLatin1String("ol") || name == QLatin1String("menu")) {
            if (!m_lists.isEmpty())
                m_lists.removeLast();
            breakLine(m_lists.isEmpty() ? 2 : 1);
            return;
        }
        if (name == QLatin1String("td") || name == QLatin1String("th") || name == QLatin1String("tr")) {
            m_inCell = false;
            return;
        }
        if (name == QLatin1String("table")) {
            m_inCell = false;
            breakLine(2);
            return;
        }
        if (name == QLatin1String("pre")) {
            if (m_preDepth > 0)
                --m_preDepth;
            breakLine(2);
            return;
        }
        if (name == QLatin1String("a")) {
            closeLink();
            return;
        }
        if (isParagraphBlock(name))
            breakLine(2);
        else if (isLineBlock(name))
            breakLine(1);
    }

    // Asks for a line break (1) or a blank line (2) before the next text.
    void breakLine(int lines)
    {
        // A table row stays on one line, whatever blocks its cells hold.
        if (m_inCell) {
            m_space = true;
            return;
        }
        m_break = std::max(m_break, lines);
    }

    // Writes the separators asked for since the last text, then the pending list or heading marker.
    void flush()
    {
        if (m_out.isEmpty()) {
            m_break = 0;
            m_space = false;
        }
        if (m_break > 0) {
            while (m_out.endsWith(QLatin1Char(' ')))
                m_out.chop(1);
            int present = 0;
            for (qsizetype i = m_out.size() - 1; i >= 0 && m_out[i] == QLatin1Char('\n'); --i)
                ++present;
            for (int i = present; i < m_break; ++i)
                m_out += QLatin1Char('\n');
        } else if (m_space && !m_out.isEmpty() && !m_out.endsWith(QLatin1Char(' ')) &&
                   !m_out.endsWith(QLatin1Char('\n'))) {
            m_out += QLatin1Char(' ');
        }
        if (!m_marker.isEmpty() && (m_out.isEmpty() || m_out.endsWith(QLatin1Char('\n')))) {
            m_out += m_marker;
            if (m_inHeading)
                m_headingStart = m_out.size();
            m_marker.clear();
        }
        m_break = 0;
        m_space = false;
        if (m_inLink && m_linkTextStart < 0)
            m_linkTextStart = m_out.size();
    }

    void text(const QString &content)
    {
        if (m_preDepth > 0) {
            QString verbatim = content;
            verbatim.replace(QChar(0xA0), QLatin1Char(' '));
            verbatim.removeIf(isInvisible);
            verbatim.replace(QStringLiteral("\r\n"), QStringLiteral("\n"));
            if (std::exchange(m_preStart, false) && verbatim.startsWith(QLatin1Char('\n')))
                verbatim.remove(0, 1);
            if (verbatim.isEmpty())
                return;
            flush();
            m_out += verbatim;
            return;
        }
        for (const QChar c : content) {
            if (isSpace(c)) {
                m_space = true;
                continue;
            }
            if (isInvisible(c))
                continue;
            if (m_break > 0 || m_space || !m_marker.isEmpty() || (m_inLink && m_linkTextStart < 0))
                flush();
            m_out += c;
        }
    }

    void closeLink()
    {
        if (!m_inLink)
            return;
        m_inLink = false;
        if (m_linkTextStart < 0 && !m_linkAlt.isEmpty()) {
            // An image link: its picture's description stands in for the text.
            flush();
            m_linkTextStart = m_out.size();
            m_out += m_linkAlt;
        }
        if (m_link.isEmpty() || m_linkTextStart < 0)
            return;
        const QString linkText = m_out.mid(m_linkTextStart).trimmed();
        if (!linkText.isEmpty() && linkText != m_link)
            m_out += QStringLiteral(" (") + m_link + QLatin1Char(')');
        m_link.clear();
    }

    static QString tidy(const QString &text)
    {
        QStringList lines = text.split(QLatin1Char('\n'));
        for (QString &line : lines) {
            while (line.endsWith(QLatin1Char(' ')))
                line.chop(1);
        }
        static const QRegularExpression blankRuns(QStringLiteral("\n{3,}"));
        return lines.join(QLatin1Char('\n')).replace(blankRuns, QStringLiteral("\n\n")).trimmed();
    }

    QUrl m_base;
    HtmlToText::Page m_page;
    QString m_out;
    int m_break = 0;
    bool m_space = false;
    QString m_marker;
    QString m_dropTag;
    int m_dropDepth = 0;
    int m_articleDepth = 0;
    bool m_inTitle = false;
    bool m_inHeading = false;
    qsizetype m_headingStart = -1;
    QString m_firstHeading;
    QList<List> m_lists;
    int m_cellsInRow = 0;
    bool m_inCell = false;
    int m_preDepth = 0;
    bool m_preStart = false;
    bool m_inLink = false;
    QString m_link;
    QString m_linkAlt;
    qsizetype m_linkTextStart = -1;
};

} // namespace

HtmlToText::Page HtmlToText::convert(QStringView html, const QUrl &baseUrl)
{
    return Converter(baseUrl).run(html);
}

QString HtmlToText::fragmentToPlainText(QStringView html)
{
    QString text;
    HtmlTokenizer tokenizer(html);
    for (Token token = tokenizer.next(); token.type != Token::Type::End; token = tokenizer.next()) {
        if (token.type == Token::Type::Text)
            text += token.text;
        else if (token.type == Token::Type::StartTag &&
                 (token.name == QLatin1String("br") || isLineBlock(token.name) || isParagraphBlock(token.name)))
            text += QLatin1Char(' ');
    }
    text.replace(QChar(0xA0), QLatin1Char(' '));
    text.removeIf(isInvisible);
    return text.simplified();
}

} // namespace Sandpiper
