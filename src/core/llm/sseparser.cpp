#include "llm/sseparser.h"

namespace Sandpiper {

QList<SseParser::Event> SseParser::feed(QByteArrayView bytes)
{
    QList<Event> events;
    for (const char byte : bytes) {
        if (m_skipLineFeed) {
            m_skipLineFeed = false;
            if (byte == '\n')
                continue;
        }
        if (byte == '\r' || byte == '\n') {
            m_skipLineFeed = byte == '\r';
            processLine(m_pending, events);
            m_pending.clear();
        } else {
            m_pending.append(byte);
        }
    }
    return events;
}

QList<SseParser::Event> SseParser::finish()
{
    QList<Event> events;
    if (!m_pending.isEmpty()) {
        processLine(m_pending, events);
        m_pending.clear();
    }
    dispatch(events);
    return events;
}

void SseParser::processLine(QByteArrayView line, QList<Event> &events)
{
    if (line.isEmpty()) {
        dispatch(events);
        return;
    }
    if (line.front() == ':')
        return; // a comment or keep-alive
    const qsizetype colon = line.indexOf(':');
    const QByteArrayView field = colon < 0 ? line : line.first(colon);
    QByteArrayView value = colon < 0 ? QByteArrayView() : line.sliced(colon + 1);
    if (value.startsWith(' '))
        value = value.sliced(1);
    if (field == "data" || field == "error") {
        if (field == "error")
            m_eventName = "error";
        if (m_hasData)
            m_data.append('\n');
        m_data.append(value);
        m_hasData = true;
    } else if (field == "event") {
        m_eventName = value.toByteArray();
    }
}

void SseParser::dispatch(QList<Event> &events)
{
    if (m_hasData)
        events.append({m_eventName, m_data});
    m_eventName.clear();
    m_data.clear();
    m_hasData = false;
}

} // namespace Sandpiper
