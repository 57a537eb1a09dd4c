#include "storage/conversation.h"

#include <QStringTokenizer>

namespace Sandpiper {

namespace {

bool hasWords(QStringView line)
{
    return std::any_of(line.begin(), line.end(), [](QChar c) { return c.isLetterOrNumber(); });
}

// Markdown that says nothing about the topic: a heading's hashes, a quote's marker, a fence.
QString withoutMarkup(QStringView line)
{
    QString text = line.trimmed().toString();
    while (!text.isEmpty() && (text.front() == QLatin1Char('#') || text.front() == QLatin1Char('>')))
        text.remove(0, 1);
    return text.simplified();
}

} // namespace

QString Conversation::titleFromFirstMessage(QStringView text)
{
    QString line;
    for (const QStringView candidate : QStringTokenizer(text, QLatin1Char('\n'))) {
        if (candidate.trimmed().startsWith(QLatin1String("```")))
            continue;
        if (hasWords(candidate)) {
            line = withoutMarkup(candidate);
            break;
        }
    }
    if (line.size() <= TitleLength)
        return line;

    // Cut before the word that crosses the limit, unless that leaves too little of the line
    // (one very long word, a URL): then cut inside it.
    qsizetype cut = line.lastIndexOf(QLatin1Char(' '), TitleLength);
    if (cut < TitleLength / 2)
        cut = TitleLength;
    QString title = line.left(cut);
    if (title.back().isHighSurrogate())
        title.chop(1);
    while (!title.isEmpty() && (title.back().isPunct() || title.back().isSpace()))
        title.chop(1);
    return title + QChar(0x2026);
}

QString Conversation::titleFromFirstMessage(const ChatMessage &message)
{
    if (const QString title = titleFromFirstMessage(message.content); !title.isEmpty())
        return title;
    QStringList names;
    for (const AttachedFile &file : message.attachments)
        names << file.name;
    names << message.images;
    return titleFromFirstMessage(names.join(QStringLiteral(", ")));
}

} // namespace Sandpiper
