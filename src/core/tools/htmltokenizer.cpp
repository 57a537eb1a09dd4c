#include "tools/htmltokenizer.h"

#include <QHash>

#include <array>

namespace Sandpiper {

namespace {

// The entities pages actually use: all of Latin-1, typography, arrows, maths and Greek. The
// full HTML list has over 2000 names; an unknown one stays as written, which reads fine.
const QHash<QString, char32_t> &namedEntities()
{
    static const QHash<QString, char32_t> entities = [] {
        QHash<QString, char32_t> table;
        // U+00A0 to U+00FF, in order.
        static constexpr std::array<const char *, 96> latin1 = {
            "nbsp",   "iexcl",  "cent",   "pound",  "curren", "yen",    "brvbar", "sect",   "uml",    "copy",
            "ordf",   "laquo",  "not",    "shy",    "reg",    "macr",   "deg",    "plusmn", "sup2",   "sup3",
            "acute",  "micro",  "para",   "middot", "cedil",  "sup1",   "ordm",   "raquo",  "frac14", "frac12",
            "frac34", "iquest", "Agrave", "Aacute", "Acirc",  "Atilde", "Auml",   "Aring",  "AElig",  "Ccedil",
            "Egrave", "Eacute", "Ecirc",  "Euml",   "Igrave", "Iacute", "Icirc",  "Iuml",   "ETH",    "Ntilde",
            "Ograve", "Oacute", "Ocirc",  "Otilde", "Ouml",   "times",  "Oslash", "Ugrave", "Uacute", "Ucirc",
            "Uuml",   "Yacute", "THORN",  "szlig",  "agrave", "aacute", "acirc",  "atilde", "auml",   "aring",
            "aelig",  "ccedil", "egrave", "eacute", "ecirc",  "euml",   "igrave", "iacute", "icirc",  "iuml",
            "eth",    "ntilde", "ograve", "oacute", "ocirc",  "otilde", "ouml",   "divide", "oslash", "ugrave",
            "uacute", "ucirc",  "uuml",   "yacute", "thorn",  "yuml"};
        for (std::size_t i = 0; i < latin1.size(); ++i)
            table.insert(QLatin1String(latin1[i]), char32_t(0xA0 + i));
        // Greek capitals U+0391 to U+03A9 (U+03A2 is unassigned) and small letters from U+03B1.
        static constexpr std::array<const char *, 25> greek = {
            "alpha", "beta",   "gamma",   "delta", "epsilon", "zeta",    "eta",  "theta", "iota",
            "kappa", "lambda", "mu",      "nu",    "xi",      "omicron", "pi",   "rho",   "sigmaf",
            "sigma", "tau",    "upsilon", "phi",   "chi",     "psi",     "omega"};
        for (std::size_t i = 0; i < greek.size(); ++i) {
            const QString name = QLatin1String(greek[i]);
            table.insert(name, char32_t(0x3B1 + i));
            if (name != QLatin1String("sigmaf"))
                table.insert(name.left(1).toUpper() + name.mid(1), char32_t(0x391 + i));
        }
        const std::initializer_list<std::pair<const char *, char32_t>> others = {
            {"amp", '&'},       {"lt", '<'},        {"gt", '>'},        {"quot", '"'},      {"apos", '\''},
            {"OElig", 0x152},   {"oelig", 0x153},   {"Scaron", 0x160},  {"scaron", 0x161},  {"Yuml", 0x178},
            {"fnof", 0x192},    {"circ", 0x2C6},    {"tilde", 0x2DC},   {"ensp", 0x2002},   {"emsp", 0x2003},
            {"thinsp", 0x2009}, {"zwnj", 0x200C},   {"zwj", 0x200D},    {"lrm", 0x200E},    {"rlm", 0x200F},
            {"hyphen", 0x2010}, {"ndash", 0x2013},  {"mdash", 0x2014},  {"lsquo", 0x2018},  {"rsquo", 0x2019},
            {"sbquo", 0x201A},  {"ldquo", 0x201C},  {"rdquo", 0x201D},  {"bdquo", 0x201E},  {"dagger", 0x2020},
            {"Dagger", 0x2021}, {"bull", 0x2022},   {"hellip", 0x2026}, {"permil", 0x2030}, {"prime", 0x2032},
            {"Prime", 0x2033},  {"lsaquo", 0x2039}, {"rsaquo", 0x203A}, {"oline", 0x203E},  {"frasl", 0x2044},
            {"euro", 0x20AC},   {"trade", 0x2122},  {"larr", 0x2190},   {"uarr", 0x2191},   {"rarr", 0x2192},
            {"darr", 0x2193},   {"harr", 0x2194},   {"lArr", 0x21D0},   {"rArr", 0x21D2},   {"hArr", 0x21D4},
            {"forall", 0x2200}, {"part", 0x2202},   {"exist", 0x2203},  {"empty", 0x2205},  {"nabla", 0x2207},
            {"isin", 0x2208},   {"notin", 0x2209},  {"prod", 0x220F},   {"sum", 0x2211},    {"minus", 0x2212},
            {"radic", 0x221A},  {"prop", 0x221D},   {"infin", 0x221E},  {"and", 0x2227},    {"or", 0x2228},
            {"cap", 0x2229},    {"cup", 0x222A},    {"int", 0x222B},    {"there4", 0x2234}, {"sim", 0x223C},
            {"asymp", 0x2248},  {"ne", 0x2260},     {"equiv", 0x2261},  {"le", 0x2264},     {"ge", 0x2265},
            {"sub", 0x2282},    {"sup", 0x2283},    {"sdot", 0x22C5},   {"loz", 0x25CA},    {"spades", 0x2660},
            {"clubs", 0x2663},  {"hearts", 0x2665}, {"diams", 0x2666},  {"check", 0x2713},  {"cross", 0x2717},
            {"star", 0x2606},   {"starf", 0x2605},  {"nbhy", 0x2011},   {"NewLine", '\n'},  {"Tab", '\t'},
        };
        for (const auto &[name, codePoint] : others)
            table.insert(QLatin1String(name), codePoint);
        return table;
    }();
    return entities;
}

// What HTML makes of numeric references to the C1 range: Windows-1252's characters.
char32_t fromWindows1252(char32_t codePoint)
{
    static constexpr std::array<char16_t, 32> c1 = {0x20AC, 0x81,   0x201A, 0x192,  0x201E, 0x2026, 0x2020, 0x2021,
                                                    0x2C6,  0x2030, 0x160,  0x2039, 0x152,  0x8D,   0x17D,  0x8F,
                                                    0x90,   0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
                                                    0x2DC,  0x2122, 0x161,  0x203A, 0x153,  0x9D,   0x17E,  0x178};
    return codePoint >= 0x80 && codePoint <= 0x9F ? c1[codePoint - 0x80] : codePoint;
}

void appendCodePoint(QString &out, char32_t codePoint)
{
    if (codePoint == 0 || codePoint > 0x10FFFF || (codePoint >= 0xD800 && codePoint <= 0xDFFF))
        codePoint = 0xFFFD;
    const char32_t single[1] = {fromWindows1252(codePoint)};
    out += QString::fromUcs4(single, 1);
}

bool isAsciiLetter(QChar c)
{
    return (c >= QLatin1Char('a') && c <= QLatin1Char('z')) || (c >= QLatin1Char('A') && c <= QLatin1Char('Z'));
}

bool isAsciiDigit(QChar c)
{
    return c >= QLatin1Char('0') && c <= QLatin1Char('9');
}

bool isAsciiHexDigit(QChar c)
{
    return isAsciiDigit(c) || (c >= QLatin1Char('a') && c <= QLatin1Char('f')) ||
           (c >= QLatin1Char('A') && c <= QLatin1Char('F'));
}

bool isHtmlSpace(QChar c)
{
    return c == QLatin1Char(' ') || c == QLatin1Char('\n') || c == QLatin1Char('\t') || c == QLatin1Char('\r') ||
           c == QLatin1Char('\f');
}

bool startsTag(QStringView html, qsizetype pos)
{
    if (pos + 1 >= html.size() || html[pos] != QLatin1Char('<'))
        return false;
    const QChar next = html[pos + 1];
    return isAsciiLetter(next) || next == QLatin1Char('/') || next == QLatin1Char('!') || next == QLatin1Char('?');
}

} // namespace

bool HtmlTokenizer::Token::hasAttribute(QStringView attribute) const
{
    for (const auto &[key, value] : attributes) {
        if (key == attribute)
            return true;
    }
    return false;
}

QString HtmlTokenizer::Token::attribute(QStringView attribute) const
{
    for (const auto &[key, value] : attributes) {
        if (key == attribute)
            return value;
    }
    return {};
}

bool HtmlTokenizer::Token::hasClass(QStringView className) const
{
    const QString classes = attribute(u"class");
    for (const QStringView word : QStringView(classes).split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        if (word.trimmed() == className)
            return true;
    }
    return false;
}

HtmlTokenizer::HtmlTokenizer(QStringView html)
    : m_html(html)
{}

bool HtmlTokenizer::isVoidElement(QStringView tag)
{
    static const QStringList voids = {QStringLiteral("area"),  QStringLiteral("base"),  QStringLiteral("br"),
                                      QStringLiteral("col"),   QStringLiteral("embed"), QStringLiteral("hr"),
                                      QStringLiteral("img"),   QStringLiteral("input"), QStringLiteral("link"),
                                      QStringLiteral("meta"),  QStringLiteral("param"), QStringLiteral("source"),
                                      QStringLiteral("track"), QStringLiteral("wbr")};
    return voids.contains(tag);
}

QString HtmlTokenizer::decodeEntities(QStringView text)
{
    if (!text.contains(QLatin1Char('&')))
        return text.toString();
    QString out;
    out.reserve(text.size());
    qsizetype i = 0;
    while (i < text.size()) {
        const QChar c = text[i];
        if (c != QLatin1Char('&') || i + 1 >= text.size()) {
            out += c;
            ++i;
            continue;
        }
        qsizetype j = i + 1;
        if (text[j] == QLatin1Char('#')) {
            ++j;
            const bool hex = j < text.size() && (text[j] == QLatin1Char('x') || text[j] == QLatin1Char('X'));
            if (hex)
                ++j;
            const qsizetype digitsStart = j;
            while (j < text.size() && j - digitsStart < 8 && (hex ? isAsciiHexDigit(text[j]) : isAsciiDigit(text[j])))
                ++j;
            if (j == digitsStart) {
                out += c;
                ++i;
                continue;
            }
            appendCodePoint(out, char32_t(text.sliced(digitsStart, j - digitsStart).toUInt(nullptr, hex ? 16 : 10)));
            if (j < text.size() && text[j] == QLatin1Char(';'))
                ++j;
            i = j;
            continue;
        }
        while (j < text.size() && j - i <= 32 && (isAsciiLetter(text[j]) || isAsciiDigit(text[j])))
            ++j;
        const QStringView name = text.sliced(i + 1, j - i - 1);
        const auto found = namedEntities().constFind(name.toString());
        const bool terminated = j < text.size() && text[j] == QLatin1Char(';');
        // Old pages write &amp and &nbsp without the semicolon, and browsers accept that for
        // the Latin-1 names; but "&para=2" in a URL is a parameter, not a pilcrow.
        const bool known = found != namedEntities().constEnd();
        const bool legacy = known && *found <= 0xFF && (j >= text.size() || text[j] != QLatin1Char('='));
        if (!known || (!terminated && !legacy)) {
            out += c;
            ++i;
            continue;
        }
        appendCodePoint(out, *found);
        i = terminated ? j + 1 : j;
    }
    return out;
}

HtmlTokenizer::Token HtmlTokenizer::next()
{
    if (!m_rawTextEnd.isEmpty()) {
        Token raw = readRawText();
        if (!raw.text.isEmpty())
            return raw;
    }
    if (m_pos >= m_html.size())
        return {};
    if (startsTag(m_html, m_pos))
        return readTag();
    return readText();
}

HtmlTokenizer::Token HtmlTokenizer::readText()
{
    qsizetype end = m_pos + 1;
    while (end < m_html.size() && !startsTag(m_html, end))
        ++end;
    Token token;
    token.type = Token::Type::Text;
    token.text = decodeEntities(m_html.sliced(m_pos, end - m_pos));
    m_pos = end;
    return token;
}

HtmlTokenizer::Token HtmlTokenizer::readRawText()
{
    const QString endTag = QLatin1String("</") + m_rawTextEnd;
    qsizetype end = m_pos;
    for (;;) {
        end = m_html.indexOf(endTag, end, Qt::CaseInsensitive);
        if (end < 0) {
            end = m_html.size();
            break;
        }
        const qsizetype after = end + endTag.size();
        if (after >= m_html.size() || isHtmlSpace(m_html[after]) || m_html[after] == QLatin1Char('>') ||
            m_html[after] == QLatin1Char('/'))
            break;
        end = after;
    }
    Token token;
    token.type = Token::Type::Text;
    const QStringView raw = m_html.sliced(m_pos, end - m_pos);
    token.text = m_rawTextDecoded ? decodeEntities(raw) : raw.toString();
    m_pos = end;
    m_rawTextEnd.clear();
    return token;
}

HtmlTokenizer::Token HtmlTokenizer::readTag()
{
    Token token;
    const QStringView rest = m_html.sliced(m_pos);
    if (rest.startsWith(QLatin1String("<!--"))) {
        const qsizetype end = m_html.indexOf(QLatin1String("-->"), m_pos + 4);
        m_pos = end < 0 ? m_html.size() : end + 3;
        token.type = Token::Type::Comment;
        return token;
    }
    if (rest.startsWith(QLatin1String("<!")) || rest.startsWith(QLatin1String("<?"))) {
        const qsizetype end = m_html.indexOf(QLatin1Char('>'), m_pos);
        m_pos = end < 0 ? m_html.size() : end + 1;
        token.type = Token::Type::Comment;
        return token;
    }

    const bool closing = rest.startsWith(QLatin1String("</"));
    qsizetype i = m_pos + (closing ? 2 : 1);
    const qsizetype nameStart = i;
    while (i < m_html.size() && !isHtmlSpace(m_html[i]) && m_html[i] != QLatin1Char('/') &&
           m_html[i] != QLatin1Char('>'))
        ++i;
    token.type = closing ? Token::Type::EndTag : Token::Type::StartTag;
    token.name = m_html.sliced(nameStart, i - nameStart).toString().toLower();

    for (;;) {
        while (i < m_html.size() && isHtmlSpace(m_html[i]))
            ++i;
        if (i >= m_html.size())
            break;
        if (m_html[i] == QLatin1Char('>')) {
            ++i;
            break;
        }
        if (m_html[i] == QLatin1Char('/')) {
            ++i;
            if (i < m_html.size() && m_html[i] == QLatin1Char('>')) {
                token.selfClosing = true;
                ++i;
                break;
            }
            continue;
        }
        const qsizetype attributeStart = i;
        ++i; // a name may start with '=' in broken markup; take at least one character
        while (i < m_html.size() && !isHtmlSpace(m_html[i]) && m_html[i] != QLatin1Char('/') &&
               m_html[i] != QLatin1Char('>') && m_html[i] != QLatin1Char('='))
            ++i;
        const QString attributeName = m_html.sliced(attributeStart, i - attributeStart).toString().toLower();
        while (i < m_html.size() && isHtmlSpace(m_html[i]))
            ++i;
        QString value;
        if (i < m_html.size() && m_html[i] == QLatin1Char('=')) {
            ++i;
            while (i < m_html.size() && isHtmlSpace(m_html[i]))
                ++i;
            if (i < m_html.size() && (m_html[i] == QLatin1Char('"') || m_html[i] == QLatin1Char('\''))) {
                const QChar quote = m_html[i];
                const qsizetype valueStart = ++i;
                qsizetype end = m_html.indexOf(quote, valueStart);
                if (end < 0)
                    end = m_html.size();
                value = decodeEntities(m_html.sliced(valueStart, end - valueStart));
                i = std::min(end + 1, m_html.size());
            } else {
                const qsizetype valueStart = i;
                while (i < m_html.size() && !isHtmlSpace(m_html[i]) && m_html[i] != QLatin1Char('>'))
                    ++i;
                value = decodeEntities(m_html.sliced(valueStart, i - valueStart));
            }
        }
        if (!closing && !token.hasAttribute(attributeName))
            token.attributes.append({attributeName, value});
    }
    m_pos = i;

    if (token.type == Token::Type::StartTag && !token.selfClosing) {
        static const QStringList rawText = {QStringLiteral("script"),  QStringLiteral("style"),
                                            QStringLiteral("xmp"),     QStringLiteral("iframe"),
                                            QStringLiteral("noembed"), QStringLiteral("noframes")};
        static const QStringList escapableRawText = {QStringLiteral("title"), QStringLiteral("textarea")};
        if (rawText.contains(token.name) || escapableRawText.contains(token.name)) {
            m_rawTextEnd = token.name;
            m_rawTextDecoded = escapableRawText.contains(token.name);
        }
    }
    return token;
}

} // namespace Sandpiper
