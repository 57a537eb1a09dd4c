#pragma once

#include "chartviews/chartcontents.h"

#include <QChartView>
#include <QList>

class QAction;
class QLegendMarker;

namespace Sandpiper {

// A create_chart chart, drawn natively where the chat shows it: light or dark as the palette is,
// values on hover, a click on a legend entry hides or shows its series (or pie slice), zoom with
// the rubber band, the wheel or + and - (0 or a double click resets), and a context menu (also
// on the menu key) to save it as PNG or SVG or copy it as an image or as CSV.
class ChartWidget : public QChartView
{
    Q_OBJECT

public:
    explicit ChartWidget(const ChartSpec &spec, QWidget *parent = nullptr);
    ~ChartWidget() override;

    const ChartSpec &spec() const { return m_spec; }
    bool isDark() const { return m_dark; }

    // Legend entries: the series, or the slices of a pie.
    qsizetype entryCount() const { return m_hidden.size(); }
    bool isEntryVisible(qsizetype entry) const { return !m_hidden.value(entry, true); }
    void setEntryVisible(qsizetype entry, bool visible);
    QLegendMarker *legendMarker(qsizetype entry) const;

    // What hovering shows for point POINT of series SERIES; for a pie, SERIES is 0 and POINT
    // the slice.
    QString toolTipText(qsizetype series, qsizetype point) const;

    // The chart as it is shown now (zoom and hidden entries included), DEVICEPIXELRATIO times
    // the widget's size.
    QImage toImage(qreal devicePixelRatio = 1) const;
    bool savePng(const QString &path) const;
    bool saveSvg(const QString &path) const;
    void copyImage() const;
    void copyCsv() const;

    // Draws SPEC at SIZE in the light or dark theme into a PNG file, without showing anything:
    // for exports of whole conversations. GUI thread only, like every widget.
    static bool renderToPng(const ChartSpec &spec, const QString &path, QSize size, bool dark);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

public Q_SLOTS:
    void zoomIn();
    void zoomOut();
    void resetZoom();

protected:
    void changeEvent(QEvent *event) override;
    void contextMenuEvent(QContextMenuEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
    void focusInEvent(QFocusEvent *event) override;
    void focusOutEvent(QFocusEvent *event) override;

private:
    // Tooltips (and a pie slice that moves out) for what the mouse is over.
    void connectHover();
    void connectLegend();
    void createActions();
    void applyTheme();
    void styleEntry(qsizetype entry);
    void updatePieLabels();
    void zoomAround(const QPointF &center, qreal factor);
    void showPointToolTip(qsizetype series, const QPointF &position, bool state);
    void showToolTip(const QString &text, bool state);
    void saveWithDialog(bool svg);

    ChartSpec m_spec;
    bool m_dark = false;
    QList<bool> m_hidden;
    ChartContents m_contents;
    QList<QLegendMarker *> m_markers;
    QAction *m_zoomInAction = nullptr;
    QAction *m_zoomOutAction = nullptr;
    QAction *m_resetZoomAction = nullptr;
    QAction *m_copyImageAction = nullptr;
    QAction *m_copyCsvAction = nullptr;
    QAction *m_savePngAction = nullptr;
    QAction *m_saveSvgAction = nullptr;
};

} // namespace Sandpiper
