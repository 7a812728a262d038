import { useCallback, useEffect, useRef, type PointerEvent } from 'react';

/** Calls `onLongPress` when a pointer stays down `ms` without moving away; a click does not count. */
export function useLongPress(onLongPress: () => void, ms: number) {
  const timer = useRef<number | undefined>(undefined);
  const start = useRef<{ x: number; y: number } | null>(null);
  const fired = useRef(false);
  const callback = useRef(onLongPress);
  useEffect(() => {
    callback.current = onLongPress;
  }, [onLongPress]);

  const cancel = useCallback(() => {
    window.clearTimeout(timer.current);
    timer.current = undefined;
    start.current = null;
  }, []);
  useEffect(() => cancel, [cancel]);

  return {
    onPointerDown: (e: PointerEvent) => {
      fired.current = false;
      if (e.button !== 0) return;
      cancel();
      start.current = { x: e.clientX, y: e.clientY };
      timer.current = window.setTimeout(() => {
        timer.current = undefined;
        start.current = null;
        fired.current = true;
        callback.current();
      }, ms);
    },
    onPointerMove: (e: PointerEvent) => {
      const s = start.current;
      if (s && Math.hypot(e.clientX - s.x, e.clientY - s.y) > 10) cancel();
    },
    onPointerUp: cancel,
    onPointerLeave: cancel,
    onPointerCancel: cancel,
    // on touch screens a long press would also open the image menu; a right click still does
    onContextMenu: (e: { preventDefault: () => void }) => {
      if (start.current || fired.current) e.preventDefault();
    },
  };
}
