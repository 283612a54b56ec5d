import { describe, expect, it } from 'vitest';
import { stepImage, zoomStep, ZOOM_LEVELS } from '../../../renderer/src/shared/lightbox.js';

describe('the image viewer', () => {
  it('zooms through the levels and stays at the ends', () => {
    expect(zoomStep(1, 1)).toBe(1.5);
    expect(zoomStep(1, -1)).toBe(0.75);
    expect(zoomStep(ZOOM_LEVELS[0], -1)).toBe(ZOOM_LEVELS[0]);
    expect(zoomStep(4, 1)).toBe(4);
    expect(zoomStep(1.2, 1)).toBe(2); // between levels: the next one up from the level above
  });

  it('steps through the images, wrapping around, back to fitted', () => {
    const images = [1, 2, 3].map((n) => ({ src: `/u/${n}`, alt: `p${n}` }));
    expect(stepImage({ images, index: 2, zoom: 2 }, 1)).toEqual({ images, index: 0, zoom: 1 });
    expect(stepImage({ images, index: 0, zoom: 1 }, -1).index).toBe(2);
  });
});
