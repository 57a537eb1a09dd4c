#pragma once

#include <QFutureWatcher>
#include <QImage>
#include <QWidget>

class QLabel;

namespace Sandpiper {

// An SVG image from the sandbox or a server. SvgSanitizer takes out everything it names outside
// itself, then a worker thread draws it, so neither a file, a FIFO nor a costly drawing can hold
// the window: a placeholder shows until the drawing arrives. Under it, a sentence says what was
// not loaded, or why nothing is drawn. A figure destroyed first lets its drawing end unseen.
class SvgFigure : public QWidget
{
    Q_OBJECT

public:
    struct Drawing {
        QImage image; // null when nothing could be drawn
        int refusedReferences = 0;
        QString problem; // why nothing is drawn, in a sentence
    };

    // Drawn at most MAXWIDTH pixels wide and four times as high.
    SvgFigure(const QByteArray &svg, int maxWidth, QWidget *parent = nullptr);

    // SVG cleaned and drawn at RATIO device pixels per pixel; any thread may call it.
    static Drawing draw(const QByteArray &svg, int maxWidth, qreal ratio);

    // Whether the drawing arrived; until then the placeholder shows.
    bool isDrawn() const { return m_drawn; }
    QImage image() const { return m_image; }

private:
    void present(const Drawing &drawing);

    QLabel *m_picture;
    QLabel *m_notice;
    QImage m_image;
    bool m_drawn = false;
    QFutureWatcher<Drawing> m_watcher;
};

} // namespace Sandpiper
