#pragma once

#include <QByteArray>
#include <QList>

namespace Sandpiper {

// Incremental parser for Server-Sent Events (the WHATWG event-stream format). Bytes may
// arrive split anywhere, even inside a UTF-8 sequence or between \r and \n; events come
// out only when complete. Comments (": ping") and unknown fields are skipped, except
// llama.cpp's "error:" field, which carries its error object in place of "data:" and comes
// out as an event named "error".
class SseParser
{
public:
    struct Event {
        QByteArray name; // from "event:", empty for the default "message"
        QByteArray data; // "data:" lines joined with \n
    };

    // Feeds more bytes; returns the events they completed.
    QList<Event> feed(QByteArrayView bytes);
    // The stream ended: an event that was not followed by a blank line still counts.
    QList<Event> finish();

private:
    void processLine(QByteArrayView line, QList<Event> &events);
    void dispatch(QList<Event> &events);

    QByteArray m_pending;        // an incomplete line
    bool m_skipLineFeed = false; // the last byte seen was \r: a following \n belongs to it
    QByteArray m_eventName;
    QByteArray m_data;
    bool m_hasData = false;
};

} // namespace Sandpiper
