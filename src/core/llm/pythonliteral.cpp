#include "llm/pythonliteral.h"

#include <QJsonArray>

namespace Sandpiper::PythonLiteral {

namespace {

void skipSpace(QStringView text, qsizetype &pos)
{
    while (pos < text.size() && text[pos].isSpace())
        ++pos;
}

bool isIdentifierStart(QChar c)
{
    return c.isLetter() || c == QLatin1Char('_');
}

bool isIdentifierChar(QChar c)
{
    return c.isLetterOrNumber() || c == QLatin1Char('_');
}

// The string prefix (r, u, b or a pair of them) and opening quote at POS: the index of the
// quote, or -1.
qsizetype stringQuote(QStringView text, qsizetype pos)
{
    for (qsizetype q = pos; q < text.size() && q - pos <= 2; ++q) {
        const QChar c = text[q];
        if (c == QLatin1Char('"') || c == QLatin1Char('\''))
            return q;
        if (!QStringLiteral("rRuUbB").contains(c))
            return -1;
    }
    return -1;
}

// Past the string whose opening quote is at QUOTE; -1 while it is open.
qsizetype stringEnd(QStringView text, qsizetype quote)
{
    const QChar q = text[quote];
    const bool triple = text.sliced(quote).startsWith(QString(3, q));
    const qsizetype width = triple ? 3 : 1;
    for (qsizetype i = quote + width; i < text.size(); ++i) {
        if (text[i] == QLatin1Char('\\')) {
            ++i;
            continue;
        }
        if (!triple && text[i] == QLatin1Char('\n'))
            return -1;
        if (text[i] == q && (!triple || text.sliced(i).startsWith(QString(3, q))))
            return i + width;
    }
    return -1;
}

QString unescape(QStringView body)
{
    QString out;
    out.reserve(body.size());
    for (qsizetype i = 0; i < body.size(); ++i) {
        const QChar c = body[i];
        if (c != QLatin1Char('\\') || i + 1 == body.size()) {
            out += c;
            continue;
        }
        const QChar e = body[++i];
        const auto hex = [&](int digits) {
            bool ok = false;
            const uint code =
                body.sliced(i + 1).first(std::min<qsizetype>(digits, body.size() - i - 1)).toUInt(&ok, 16);
            if (!ok || i + digits >= body.size()) {
                out += QLatin1Char('\\');
                out += e;
                return;
            }
            const char32_t point = code;
            out += QString::fromUcs4(&point, 1);
            i += digits;
        };
        switch (e.unicode()) {
        case 'n':
            out += QLatin1Char('\n');
            break;
        case 't':
            out += QLatin1Char('\t');
            break;
        case 'r':
            out += QLatin1Char('\r');
            break;
        case '0':
            out += QChar(0);
            break;
        case 'x':
            hex(2);
            break;
        case 'u':
            hex(4);
            break;
        case 'U':
            hex(8);
            break;
        case '\n': // a line continued
            break;
        case '\\':
        case '\'':
        case '"':
            out += e;
            break;
        default:
            out += QLatin1Char('\\');
            out += e;
        }
    }
    return out;
}

std::optional<QJsonValue> readString(QStringView text, qsizetype &pos)
{
    const qsizetype quote = stringQuote(text, pos);
    const qsizetype end = quote < 0 ? -1 : stringEnd(text, quote);
    if (end < 0)
        return std::nullopt;
    const bool raw = text.sliced(pos, quote - pos).contains(QLatin1Char('r'), Qt::CaseInsensitive);
    const qsizetype width = text.sliced(quote).startsWith(QString(3, text[quote])) ? 3 : 1;
    const QStringView body = text.sliced(quote + width, end - quote - 2 * width);
    pos = end;
    return QJsonValue(raw ? body.toString() : unescape(body));
}

std::optional<QJsonValue> readNumber(QStringView text, qsizetype &pos)
{
    qsizetype end = pos;
    if (end < text.size() && (text[end] == QLatin1Char('-') || text[end] == QLatin1Char('+')))
        ++end;
    while (end < text.size() && (text[end].isDigit() || QStringLiteral("._eE").contains(text[end]) ||
                                 ((text[end] == QLatin1Char('-') || text[end] == QLatin1Char('+')) &&
                                  (text[end - 1] == QLatin1Char('e') || text[end - 1] == QLatin1Char('E')))))
        ++end;
    QString digits = text.sliced(pos, end - pos).toString();
    digits.remove(QLatin1Char('_'));
    bool ok = false;
    const qint64 whole = digits.toLongLong(&ok);
    if (ok) {
        pos = end;
        return QJsonValue(whole);
    }
    const double real = digits.toDouble(&ok);
    if (!ok)
        return std::nullopt;
    pos = end;
    return QJsonValue(real);
}

// The items of a list, tuple or dict that opens at POS, up to CLOSE.
template<typename Item> bool readItems(QStringView text, qsizetype &pos, QChar close, Item readItem)
{
    ++pos; // the opening bracket
    for (;;) {
        skipSpace(text, pos);
        if (pos < text.size() && text[pos] == close) {
            ++pos;
            return true;
        }
        if (!readItem())
            return false;
        skipSpace(text, pos);
        if (pos < text.size() && text[pos] == QLatin1Char(','))
            ++pos;
        else if (pos >= text.size() || text[pos] != close)
            return false;
    }
}

} // namespace

qsizetype bracketEnd(QStringView text, qsizetype from)
{
    int depth = 0;
    for (qsizetype i = from; i < text.size(); ++i) {
        const QChar c = text[i];
        if (c == QLatin1Char('"') || c == QLatin1Char('\'')) {
            const qsizetype end = stringEnd(text, i);
            if (end < 0)
                return -1;
            i = end - 1;
        } else if (c == QLatin1Char('[') || c == QLatin1Char('(') || c == QLatin1Char('{')) {
            ++depth;
        } else if ((c == QLatin1Char(']') || c == QLatin1Char(')') || c == QLatin1Char('}')) && --depth == 0) {
            return i + 1;
        }
    }
    return -1;
}

std::optional<QJsonValue> readValue(QStringView text, qsizetype &pos)
{
    skipSpace(text, pos);
    if (pos >= text.size())
        return std::nullopt;
    const QChar c = text[pos];
    if (stringQuote(text, pos) >= 0)
        return readString(text, pos);
    if (c == QLatin1Char('[') || c == QLatin1Char('(')) {
        QJsonArray items;
        const bool ok = readItems(text, pos, c == QLatin1Char('[') ? QLatin1Char(']') : QLatin1Char(')'), [&] {
            const std::optional<QJsonValue> item = readValue(text, pos);
            if (item)
                items.append(*item);
            return item.has_value();
        });
        return ok ? std::optional<QJsonValue>(items) : std::nullopt;
    }
    if (c == QLatin1Char('{')) {
        QJsonObject object;
        const bool ok = readItems(text, pos, QLatin1Char('}'), [&] {
            const std::optional<QJsonValue> key = readValue(text, pos);
            skipSpace(text, pos);
            if (!key || key->isArray() || key->isObject() || pos >= text.size() || text[pos] != QLatin1Char(':'))
                return false;
            ++pos;
            const std::optional<QJsonValue> value = readValue(text, pos);
            if (value)
                object.insert(key->isString() ? key->toString() : key->toVariant().toString(), *value);
            return value.has_value();
        });
        return ok ? std::optional<QJsonValue>(object) : std::nullopt;
    }
    if (isIdentifierStart(c)) {
        qsizetype end = pos;
        while (end < text.size() && isIdentifierChar(text[end]))
            ++end;
        const QStringView word = text.sliced(pos, end - pos);
        pos = end;
        // JSON's spellings too: models mix them in.
        if (word == QLatin1String("True") || word == QLatin1String("true"))
            return QJsonValue(true);
        if (word == QLatin1String("False") || word == QLatin1String("false"))
            return QJsonValue(false);
        if (word == QLatin1String("None") || word == QLatin1String("null"))
            return QJsonValue(QJsonValue::Null);
        return std::nullopt;
    }
    return readNumber(text, pos);
}

std::optional<QList<Call>> readCallList(QStringView text)
{
    QList<Call> calls;
    qsizetype pos = 0;
    skipSpace(text, pos);
    if (pos >= text.size() || text[pos] != QLatin1Char('['))
        return std::nullopt;
    const bool ok = readItems(text, pos, QLatin1Char(']'), [&] {
        Call call;
        qsizetype end = pos;
        while (end < text.size() && (isIdentifierChar(text[end]) || text[end] == QLatin1Char('.')))
            ++end;
        call.name = text.sliced(pos, end - pos).toString();
        pos = end;
        skipSpace(text, pos);
        if (call.name.isEmpty() || pos >= text.size() || text[pos] != QLatin1Char('('))
            return false;
        const bool argumentsOk = readItems(text, pos, QLatin1Char(')'), [&] {
            qsizetype keyEnd = pos;
            while (keyEnd < text.size() && isIdentifierChar(text[keyEnd]))
                ++keyEnd;
            const QString key = text.sliced(pos, keyEnd - pos).toString();
            pos = keyEnd;
            skipSpace(text, pos);
            if (key.isEmpty() || pos >= text.size() || text[pos] != QLatin1Char('='))
                return false;
            ++pos;
            const std::optional<QJsonValue> value = readValue(text, pos);
            if (value)
                call.arguments.insert(key, *value);
            return value.has_value();
        });
        if (argumentsOk)
            calls.append(call);
        return argumentsOk;
    });
    skipSpace(text, pos);
    if (!ok || pos != text.size())
        return std::nullopt;
    return calls;
}

} // namespace Sandpiper::PythonLiteral
